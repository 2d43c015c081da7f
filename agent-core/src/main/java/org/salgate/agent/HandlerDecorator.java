package org.salgate.agent;

import org.salgate.transport.ServerHandler;

/**
 * Wraps the agent's server handler for one door (its transport, or an in-process session's name
 * such as {@code mqtt}), to observe what passes, such as for metrics. Registered with
 * {@link AgentBuilder#decorateHandler}. The wrapper must hand every call on, on the same thread.
 */
@FunctionalInterface
public interface HandlerDecorator {

    /** The handler the door's sessions talk to. */
    ServerHandler decorate(String door, ServerHandler handler);
}
