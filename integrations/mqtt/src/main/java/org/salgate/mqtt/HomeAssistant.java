package org.salgate.mqtt;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;
import org.salgate.sensorml.Output;
import org.salgate.sensorml.SensorDescription;

/**
 * Home Assistant's MQTT discovery: for every stream the bridge publishes, one retained
 * {@code <prefix>/sensor/<node>/<object>/config} document that makes Home Assistant create a
 * sensor entity reading the stream's topic; an empty retained message removes it when the stream
 * ends or its sensor is removed. Node is {@code salgate_<agent id>}, object the sensor and command;
 * both keep to the letters, digits, {@code _} and {@code -} that Home Assistant accepts there.
 *
 * <p>The entity's unit, device class and state class come from the sensor's SensorML description
 * (its first output): a UCUM unit Home Assistant knows is translated ({@code Cel} to {@code °C});
 * a quantity or count is a {@code measurement}. It is available while the bridge's status topic
 * says {@code online} and the last reading's status is {@code OK}, so a device that fails shows
 * unavailable rather than a stale value. Thread-safe.
 */
final class HomeAssistant {

    /** Home Assistant's default discovery prefix. */
    static final String DEFAULT_PREFIX = "homeassistant";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern NOT_ALLOWED = Pattern.compile("[^a-zA-Z0-9_-]");

    /** UCUM codes and the units Home Assistant names them by, with the device class they imply, if any. */
    private static final Map<String, String[]> UNITS = Map.ofEntries(
            Map.entry("Cel", new String[] {"°C", "temperature"}),
            Map.entry("[degF]", new String[] {"°F", "temperature"}),
            Map.entry("K", new String[] {"K", "temperature"}),
            Map.entry("%", new String[] {"%", null}),
            Map.entry("Pa", new String[] {"Pa", "pressure"}),
            Map.entry("hPa", new String[] {"hPa", "pressure"}),
            Map.entry("kPa", new String[] {"kPa", "pressure"}),
            Map.entry("bar", new String[] {"bar", "pressure"}),
            Map.entry("mbar", new String[] {"mbar", "pressure"}),
            Map.entry("V", new String[] {"V", "voltage"}),
            Map.entry("mV", new String[] {"mV", "voltage"}),
            Map.entry("A", new String[] {"A", "current"}),
            Map.entry("mA", new String[] {"mA", "current"}),
            Map.entry("W", new String[] {"W", "power"}),
            Map.entry("kW", new String[] {"kW", "power"}),
            Map.entry("W.h", new String[] {"Wh", "energy"}),
            Map.entry("kW.h", new String[] {"kWh", "energy"}),
            Map.entry("Hz", new String[] {"Hz", "frequency"}),
            Map.entry("lx", new String[] {"lx", "illuminance"}),
            Map.entry("By", new String[] {"B", "data_size"}),
            Map.entry("kBy", new String[] {"kB", "data_size"}),
            Map.entry("MBy", new String[] {"MB", "data_size"}),
            Map.entry("s", new String[] {"s", "duration"}),
            Map.entry("ms", new String[] {"ms", "duration"}),
            Map.entry("m", new String[] {"m", "distance"}),
            Map.entry("mm", new String[] {"mm", "distance"}),
            Map.entry("m/s", new String[] {"m/s", "speed"}),
            Map.entry("[ppm]", new String[] {"ppm", null}),
            Map.entry("L", new String[] {"L", "volume"}),
            Map.entry("m3", new String[] {"m³", "volume"}));

    private final String prefix;
    private final String agentId;
    private final String node;
    private final Topics topics;
    private final BiConsumer<String, byte[]> retain;
    private final Map<String, SensorDescription> described = new HashMap<>();
    /** The streams published now, each as sensor and command. */
    private final Set<StreamSpec> streaming = new HashSet<>();
    /** The config topics published and not yet removed. */
    private final Set<String> announced = new HashSet<>();

    /**
     * @param prefix the discovery prefix Home Assistant listens on ({@value #DEFAULT_PREFIX} unless changed there)
     * @param retain publishes a retained message (an empty one removes it), again on every connect
     */
    HomeAssistant(String prefix, String agentId, Topics topics, BiConsumer<String, byte[]> retain) {
        this.prefix = prefix;
        this.agentId = agentId;
        this.node = id("salgate_" + agentId);
        this.topics = topics;
        this.retain = retain;
    }

    /** @throws IllegalArgumentException when {@code prefix} cannot start a topic name */
    static String checkPrefix(String prefix) {
        if (prefix.isEmpty() || prefix.contains("+") || prefix.contains("#") || prefix.startsWith("/")
                || prefix.endsWith("/")) {
            throw new IllegalArgumentException("Home Assistant discovery prefix '" + prefix + "' is not usable: give"
                    + " the prefix Home Assistant's MQTT integration uses, by default " + DEFAULT_PREFIX);
        }
        return prefix;
    }

    /** The config topic of one stream. */
    String configTopic(String sensorId, String commandId) {
        return prefix + "/sensor/" + node + "/" + objectId(sensorId, commandId) + "/config";
    }

    /** A sensor's description arrived (at start, or when it was added). */
    synchronized void described(SensorDescription d) {
        described.put(d.id(), d);
        for (StreamSpec s : streaming) {
            if (s.sensorId().equals(d.id())) {
                announce(s);
            }
        }
    }

    /** The bridge publishes this stream (one sensor's, not a pattern) from now on. */
    synchronized void streamStarted(StreamSpec s) {
        streaming.add(key(s));
        if (described.containsKey(s.sensorId())) {
            announce(key(s));
        }
    }

    /** The bridge no longer publishes this stream: its entity goes. */
    synchronized void streamEnded(StreamSpec s) {
        if (streaming.remove(key(s))) {
            withdraw(configTopic(s.sensorId(), s.commandId()));
        }
    }

    /** The agent removed the sensor: the entities of its streams go. */
    synchronized void sensorRemoved(String sensorId) {
        described.remove(sensorId);
        streaming.removeIf(s -> {
            if (s.sensorId().equals(sensorId)) {
                withdraw(configTopic(s.sensorId(), s.commandId()));
                return true;
            }
            return false;
        });
    }

    /** A stream as sensor and command: its interval does not change its entity. */
    private static StreamSpec key(StreamSpec s) {
        return new StreamSpec(s.sensorId(), s.commandId(), 1);
    }

    private void announce(StreamSpec s) {
        String topic = configTopic(s.sensorId(), s.commandId());
        announced.add(topic);
        retain.accept(topic, config(described.get(s.sensorId()), s.commandId()));
    }

    private void withdraw(String topic) {
        if (announced.remove(topic)) {
            retain.accept(topic, new byte[0]);
        }
    }

    /** The discovery document of one stream of a described sensor. */
    byte[] config(SensorDescription d, String commandId) {
        String stateTopic = topics.reading(d.id(), commandId);
        ObjectNode n = JSON.createObjectNode();
        n.put("name", StreamSpec.DEFAULT_COMMAND.equals(commandId) ? d.id() : d.id() + " " + commandId);
        n.put("unique_id", node + "_" + objectId(d.id(), commandId));
        n.put("state_topic", stateTopic);
        n.put("value_template", "{{ value_json.value }}");
        ArrayNode availability = n.putArray("availability");
        availability.addObject().put("topic", topics.status())
                .put("payload_available", MqttPublisher.ONLINE).put("payload_not_available", MqttPublisher.OFFLINE);
        availability.addObject().put("topic", stateTopic)
                .put("value_template", "{{ 'online' if value_json.status == 'OK' else 'offline' }}");
        n.put("availability_mode", "all");
        n.put("json_attributes_topic", stateTopic);
        n.put("json_attributes_template", "{{ {'status': value_json.status, 'error': value_json.get('error', ''),"
                + " 'timestamp': value_json.timestamp} | tojson }}");
        Output out = d.outputs().isEmpty() ? null : d.outputs().get(0);
        if (out != null && (out.type() == Output.DataType.QUANTITY || out.type() == Output.DataType.COUNT)) {
            n.put("state_class", "measurement");
            String[] unit = UNITS.get(out.unit());
            if (unit != null) {
                n.put("unit_of_measurement", unit[0]);
                String deviceClass = unit[1] != null ? unit[1] : humidity(out);
                if (deviceClass != null) {
                    n.put("device_class", deviceClass);
                }
            } else if (!out.unit().isEmpty() && !out.unit().equals("1")) { // UCUM's 1: dimensionless
                n.put("unit_of_measurement", out.unit());
            }
        }
        ObjectNode device = n.putObject("device");
        device.putArray("identifiers").add(node);
        device.put("name", "salgate " + agentId);
        device.put("manufacturer", "salgate");
        device.put("model", "sensor gateway");
        n.putObject("origin").put("name", "salgate");
        try {
            return JSON.writeValueAsBytes(n);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialize", e);
        }
    }

    /** A percentage is a relative humidity when its output says so; otherwise a plain percentage. */
    private static String humidity(Output out) {
        String what = (out.name() + " " + out.definition()).toLowerCase(Locale.ROOT);
        return out.unit().equals("%") && what.contains("humid") ? "humidity" : null;
    }

    private static String objectId(String sensorId, String commandId) {
        return id(StreamSpec.DEFAULT_COMMAND.equals(commandId) ? sensorId : sensorId + "_" + commandId);
    }

    /** An id made of what Home Assistant accepts in a discovery topic: letters, digits, _ and -. */
    static String id(String s) {
        return NOT_ALLOWED.matcher(s).replaceAll("_");
    }
}
