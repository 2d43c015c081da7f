package org.salgate.agent.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.DocumentException;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SensorDescription;
import org.salgate.sensorml.SensorMl;
import org.salgate.wire.ErrorCode;

/**
 * The sensors added to and removed from a protocol at run time, as its PCML entry carries them so
 * that a saved configuration starts the same platform: parameter {@value #REMOVED}{@code <id>}
 * (its value unused) for a sensor the plugin opened with and that was removed, parameter
 * {@value #ADDED}{@code <id>} holding the SensorML of a sensor that was added. The agent keeps
 * these parameters from the plugin, removes the sensors after opening the protocol, then adds
 * the others.
 *
 * @param pluginConfig the entry without these parameters, as the plugin is given it
 * @param removed the ids of the sensors to remove once the protocol is open
 * @param added the sensors to add once the protocol is open, in the entry's order
 */
record SensorChanges(ProtocolConfig pluginConfig, List<String> removed, List<SensorDescription> added) {

    /** The prefix of a parameter holding the SensorML of a sensor added at run time. */
    static final String ADDED = "agent.sensor.";
    /** The prefix of a parameter naming a sensor removed at run time. */
    static final String REMOVED = "agent.removedSensor.";

    SensorChanges {
        removed = List.copyOf(removed);
        added = List.copyOf(added);
    }

    /** Whether the entry asks for no change. */
    boolean isEmpty() {
        return removed.isEmpty() && added.isEmpty();
    }

    /**
     * The changes a PCML entry carries.
     *
     * @throws CallException INVALID_DOCUMENT when an added sensor's SensorML is not valid
     */
    static SensorChanges of(ProtocolConfig entry) throws CallException {
        Map<String, String> plugin = new LinkedHashMap<>();
        List<String> removed = new ArrayList<>();
        List<SensorDescription> added = new ArrayList<>();
        for (Map.Entry<String, String> p : entry.parameters().entrySet()) {
            if (p.getKey().startsWith(REMOVED)) {
                removed.add(p.getKey().substring(REMOVED.length()));
            } else if (p.getKey().startsWith(ADDED)) {
                added.add(sensor(entry.name(), p.getKey(), p.getValue()));
            } else {
                plugin.put(p.getKey(), p.getValue());
            }
        }
        return new SensorChanges(new ProtocolConfig(entry.name(), entry.type(), entry.endpoint(), plugin), removed,
                added);
    }

    private static SensorDescription sensor(String protocol, String parameter, String sensorMl) throws CallException {
        SensorDescription d;
        try {
            d = SensorMl.read(sensorMl);
        } catch (DocumentException e) {
            throw new CallException(ErrorCode.INVALID_DOCUMENT, "parameter " + parameter + " of protocol " + protocol
                    + " is not a valid SensorML description: " + e.getMessage());
        }
        if (!parameter.equals(ADDED + d.id())) {
            throw new CallException(ErrorCode.INVALID_DOCUMENT, "parameter " + parameter + " of protocol " + protocol
                    + " describes sensor " + d.id() + "; name it " + ADDED + d.id());
        }
        return d.withProtocol(protocol);
    }

    /**
     * The PCML entry of a running protocol: the plugin's entry with the changes from the sensors it
     * opened with to the sensors it serves now. A sensor whose description changed under its id is
     * both removed and added.
     *
     * @throws IllegalArgumentException when an added sensor's description cannot be written as SensorML
     */
    static ProtocolConfig entry(ProtocolConfig pluginConfig, List<SensorDescription> opened,
                                List<SensorDescription> current) {
        Map<String, String> parameters = new LinkedHashMap<>(pluginConfig.parameters());
        for (SensorDescription d : opened) {
            if (!current.contains(d)) {
                parameters.put(REMOVED + d.id(), "");
            }
        }
        for (SensorDescription d : current) {
            if (!opened.contains(d)) {
                parameters.put(ADDED + d.id(), SensorMl.write(d));
            }
        }
        return new ProtocolConfig(pluginConfig.name(), pluginConfig.type(), pluginConfig.endpoint(), parameters);
    }

    /**
     * Removes and adds the sensors on a protocol just opened.
     *
     * @throws CallException PLUGIN_FAILURE when the protocol refuses one, naming it
     */
    void applyTo(SensorProtocol protocol) throws CallException {
        String name = pluginConfig.name();
        for (String id : removed) {
            try {
                protocol.removeSensor(id);
            } catch (PluginException | RuntimeException e) {
                throw new CallException(ErrorCode.PLUGIN_FAILURE, "protocol " + name + " could not remove sensor " + id
                        + " as parameter " + REMOVED + id + " asks: " + SensorManager.message(e));
            }
        }
        for (SensorDescription d : added) {
            try {
                protocol.addSensor(d);
            } catch (PluginException | RuntimeException e) {
                throw new CallException(ErrorCode.PLUGIN_FAILURE, "protocol " + name + " could not add sensor "
                        + d.id() + " as parameter " + ADDED + d.id() + " asks: " + SensorManager.message(e));
            }
        }
    }
}
