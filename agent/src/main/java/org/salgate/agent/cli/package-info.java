/** The agent's command line: {@link org.salgate.agent.cli.AgentMain}. */
package org.salgate.agent.cli;
