/**
 * The agent layer: the transport's {@link org.salgate.transport.ServerHandler}, which greets
 * sessions, dispatches their requests to the communication layer and manages their streams and
 * event subscriptions.
 */
package org.salgate.agent.session;
