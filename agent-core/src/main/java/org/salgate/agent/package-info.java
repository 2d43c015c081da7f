/**
 * The SAL agent, embeddable ({@link org.salgate.agent.Agent}, {@link org.salgate.agent.AgentBuilder})
 * and run by the agent program ({@code org.salgate.agent.cli.AgentMain}, in the agent module). Its layers, as in the SAL paper:
 * <ul>
 *   <li>agent layer ({@code session}): sessions, the hello, request dispatch on a bounded worker pool;</li>
 *   <li>communication layer ({@code core}, {@code plugin}): the sensor and protocol managers behind the
 *       SAL API, and plugin discovery and run-time loading;</li>
 *   <li>endpoint layer ({@code endpoint}): the ports protocols bind to;</li>
 * </ul>
 * plus {@code stream}, the per-client streams with backpressure driven by one scheduler.
 *
 * <p>Threads: transport I/O threads run the handler and answer cheap calls inline; plugin calls
 * for requests run on the worker pool ({@code sal-worker-*}); stream reads run on the stream
 * scheduler ({@code sal-stream-*}). A plugin failure becomes a failure response or an error
 * reading; it never closes a session or stops the agent.
 */
package org.salgate.agent;
