package org.salgate.mqtt;

/**
 * The bridge's topic names under {@code <prefix>/<agent-id>}: {@code sensors/<sensor>/<command>} for
 * readings, {@code sensors/<sensor>/description} for the retained SensorML, {@code status} for the
 * retained birth and last will, {@code events} for agent events. Characters MQTT reserves in topic
 * names ({@code / + #}) are replaced by {@code _} in the agent, sensor and command ids.
 */
public final class Topics {

    private final String root;

    /** @param prefix the first level(s), such as {@code salgate}; may contain {@code /} */
    public Topics(String prefix, String agentId) {
        if (prefix.isEmpty() || prefix.contains("+") || prefix.contains("#") || prefix.startsWith("/")
                || prefix.endsWith("/")) {
            throw new IllegalArgumentException("topic prefix '" + prefix + "' is not usable: give a non-empty topic"
                    + " name without + or # and without a leading or trailing /");
        }
        this.root = prefix + "/" + level(agentId);
    }

    /** The readings of one sensor command. */
    public String reading(String sensorId, String commandId) {
        return root + "/sensors/" + level(sensorId) + "/" + level(commandId);
    }

    /** A sensor's retained SensorML description. */
    public String description(String sensorId) {
        return root + "/sensors/" + level(sensorId) + "/description";
    }

    /** The agent's retained {@code online} / {@code offline} state. */
    public String status() {
        return root + "/status";
    }

    /** The agent's events. */
    public String events() {
        return root + "/events";
    }

    /** A wildcard filter matching every topic of this agent. */
    public String all() {
        return root + "/#";
    }

    static String level(String id) {
        String s = id.replace('/', '_').replace('+', '_').replace('#', '_');
        return s.isEmpty() ? "_" : s;
    }
}
