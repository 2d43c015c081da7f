/**
 * The conformance suite every transport passes.
 *
 * <p>{@link org.salgate.transport.tck.AbstractTransportConformanceTest} drives a transport's server
 * and client directly; {@link org.salgate.transport.tck.AbstractAgentConformanceTest} runs the real
 * agent and client library over it. A transport's tests extend both and only say how to get the
 * provider, for example:
 *
 * <pre>{@code
 * class RmiTransportConformanceTest extends AbstractTransportConformanceTest {
 *     protected TransportProvider provider() { return Transports.byName("rmi"); }
 * }
 * }</pre>
 *
 * The transports of this project's framing (Netty, MINA, xSocket, the socket transport) extend
 * {@link org.salgate.transport.tck.AbstractFramedTransportConformanceTest} instead, which adds what
 * they must do with raw bytes no client would send; RMI, HTTP and gRPC test the same on their own
 * wire. No test here skips itself: a test a transport cannot pass fails.
 */
package org.salgate.transport.tck;
