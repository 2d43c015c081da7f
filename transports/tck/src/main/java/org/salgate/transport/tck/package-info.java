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
 *     protected boolean byteStream() { return false; }
 * }
 * }</pre>
 *
 * Tests needing a capability the transport lacks are skipped with their reason, never removed.
 */
package org.salgate.transport.tck;
