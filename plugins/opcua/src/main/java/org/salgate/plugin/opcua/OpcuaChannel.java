package org.salgate.plugin.opcua;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.salgate.sensorml.ChannelConfig;

/**
 * A variable node of an OPC UA server, from the channel's PCML attributes: {@code node} (its node
 * id, such as {@code ns=2;s=Temperature} or {@code ns=3;i=1001}), and for a channel the server
 * reports by itself, monitored in the protocol's subscription: {@code sampling-ms} (how often the
 * server samples the value; 0 for as fast as it can), {@code queue-size} (values the server keeps
 * between two publishes, default 1) and {@code deadband} (the least absolute change reported).
 *
 * @param name the channel's name
 * @param node the node's id
 * @param samplingMs the sampling interval, or -1 when the channel is read when asked
 * @param queueSize the monitored item's queue size
 * @param deadband the absolute deadband, or 0 for every change
 */
record OpcuaChannel(String name, NodeId node, double samplingMs, int queueSize, double deadband) {

    /** The attributes an OPC UA channel may have. */
    static final Set<String> ATTRIBUTES = Set.of("node", "sampling-ms", "queue-size", "deadband");

    /** Whether the server reports the channel's value in the subscription. */
    boolean monitored() {
        return samplingMs >= 0;
    }

    /**
     * The channel {@code config} describes.
     *
     * @param settings the protocol's parameters: its default sampling interval
     * @throws IllegalArgumentException naming the channel and what is wrong with its attributes
     */
    static OpcuaChannel of(ChannelConfig config, OpcuaSettings settings) {
        String name = config.name();
        String where = "OPC UA channel " + name + ": ";
        Map<String, String> a = config.attributes();
        Set<String> unknown = new TreeSet<>(a.keySet());
        unknown.removeAll(ATTRIBUTES);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(where + "unknown attribute(s) " + String.join(", ", unknown)
                    + "; an OPC UA channel's attributes are " + String.join(", ", new TreeSet<>(ATTRIBUTES)));
        }
        String text = a.get("node");
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(where + "attribute node is missing; give the variable's node id,"
                    + " such as ns=2;s=Temperature");
        }
        NodeId node = NodeId.parseOrNull(text.strip());
        if (node == null) {
            throw new IllegalArgumentException(where + "node '" + text + "' is not a node id; write it as"
                    + " ns=2;s=Temperature, ns=2;i=1001, ns=2;g=GUID or ns=2;b=BASE64");
        }
        double sampling = a.containsKey("sampling-ms")
                ? decimal(where + "sampling-ms", a.get("sampling-ms"), 0, 3_600_000) : settings.samplingMs();
        boolean monitoring = sampling >= 0;
        if (!monitoring && (a.containsKey("queue-size") || a.containsKey("deadband"))) {
            throw new IllegalArgumentException(where + "attributes queue-size and deadband apply to a monitored"
                    + " channel: give it sampling-ms too (or the protocol parameter sampling-ms)");
        }
        int queue = a.containsKey("queue-size")
                ? (int) decimal(where + "queue-size", a.get("queue-size"), 1, 10_000, true) : 1;
        double deadband = a.containsKey("deadband")
                ? decimal(where + "deadband", a.get("deadband"), 0, Double.MAX_VALUE) : 0;
        return new OpcuaChannel(name, node, sampling, queue, deadband);
    }

    static double decimal(String name, String text, double min, double max) {
        return decimal(name, text, min, max, false);
    }

    /**
     * {@code text} as a number from {@code min} to {@code max}, whole when {@code whole}.
     *
     * @throws IllegalArgumentException saying what {@code name} must be
     */
    static double decimal(String name, String text, double min, double max, boolean whole) {
        try {
            double v = Double.parseDouble(text.strip());
            if (v >= min && v <= max && (!whole || v == Math.rint(v))) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(name + " '" + text + "' is not a " + (whole ? "whole " : "")
                + "number from " + (whole ? Long.toString((long) min) : Double.toString(min)) + " to "
                + (max == Double.MAX_VALUE ? "any" : whole ? Long.toString((long) max) : Double.toString(max)));
    }
}
