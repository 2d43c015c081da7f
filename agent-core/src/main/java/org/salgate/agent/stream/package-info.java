/**
 * Streams: per-client streams of sensor readings driven by one small scheduler, with
 * backpressure from the session's writability so that a slow client never grows the agent's
 * memory beyond the transport's high-water mark nor stalls other clients.
 */
package org.salgate.agent.stream;
