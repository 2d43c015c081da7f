package org.salgate.mqtt.sparkplug;

import java.util.Objects;

/**
 * Sparkplug B's topics of one edge node: {@code spBv1.0/<group>/<type>/<node>[/<device>]}. Group,
 * node and device ids are single topic levels: {@code / + #} cannot be in them (the group and node
 * are refused with a message saying so; a device id, made from a sensor id, has them replaced by
 * {@code _}).
 */
public final class SparkplugTopics {

    /** The namespace of Sparkplug B, the first level of every topic. */
    public static final String NAMESPACE = "spBv1.0";

    private final String group;
    private final String node;

    public SparkplugTopics(String group, String node) {
        this.group = check(group, "group", "--sparkplug-group");
        this.node = check(node, "edge node", "--sparkplug-node");
    }

    public String group() {
        return group;
    }

    public String node() {
        return node;
    }

    public String nbirth() {
        return nodeTopic("NBIRTH");
    }

    public String ndeath() {
        return nodeTopic("NDEATH");
    }

    public String ncmd() {
        return nodeTopic("NCMD");
    }

    public String dbirth(String device) {
        return deviceTopic("DBIRTH", device);
    }

    public String ddata(String device) {
        return deviceTopic("DDATA", device);
    }

    public String ddeath(String device) {
        return deviceTopic("DDEATH", device);
    }

    public String dcmd(String device) {
        return deviceTopic("DCMD", device);
    }

    /** The filter of every device command of this node. */
    public String dcmdAll() {
        return deviceTopic("DCMD", "+");
    }

    /** The device of a device topic of this node, or null when {@code topic} is not one of type {@code type}. */
    public String deviceOf(String topic, String type) {
        String prefix = NAMESPACE + "/" + group + "/" + type + "/" + node + "/";
        return topic.startsWith(prefix) ? topic.substring(prefix.length()) : null;
    }

    /** A sensor id as a device id: one topic level. */
    public static String device(String sensorId) {
        String s = sensorId.replace('/', '_').replace('+', '_').replace('#', '_');
        return s.isEmpty() ? "_" : s;
    }

    private String nodeTopic(String type) {
        return NAMESPACE + "/" + group + "/" + type + "/" + node;
    }

    private String deviceTopic(String type, String device) {
        return nodeTopic(type) + "/" + device;
    }

    private static String check(String id, String what, String option) {
        Objects.requireNonNull(id, what);
        if (id.isEmpty() || id.contains("/") || id.contains("+") || id.contains("#")) {
            throw new IllegalArgumentException("Sparkplug " + what + " id '" + id + "' is not usable: it is one"
                    + " topic level, so it must be non-empty and without / + # (set it with " + option + ")");
        }
        return id;
    }
}
