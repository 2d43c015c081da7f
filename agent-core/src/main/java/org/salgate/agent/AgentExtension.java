package org.salgate.agent;

/**
 * Something that runs alongside an agent once it listens, such as a bridge to a message broker or
 * a metrics endpoint. Registered with {@link AgentBuilder#extension}; the agent starts its
 * extensions in order after its transport listens and closes them, in reverse order, first thing
 * in {@link Agent#close()}, before its streams end.
 */
@FunctionalInterface
public interface AgentExtension {

    /**
     * Starts on a running agent.
     *
     * @return what the agent closes when it stops
     * @throws Exception when it cannot start; the agent then stops and {@link AgentBuilder#start()} fails with it
     */
    AutoCloseable start(Agent agent) throws Exception;
}
