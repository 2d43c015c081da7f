package org.salgate.agent.core;

import java.util.ArrayList;
import java.util.List;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SensorDescription;
import org.salgate.model.ErrorCode;

/**
 * The sensors added to and removed from a protocol at run time, as its PCML entry carries them
 * ({@link ProtocolConfig#addedSensors()}, {@link ProtocolConfig#removedSensors()}) so that a saved
 * configuration starts the same platform. The plugin is given the entry without them; the agent
 * removes the sensors once the protocol is open, then adds the others.
 */
final class SensorChanges {

    private SensorChanges() {}

    /** The entry as the plugin is given it: with its channels, without the sensors changed at run time. */
    static ProtocolConfig pluginConfig(ProtocolConfig entry) {
        return new ProtocolConfig(entry.name(), entry.type(), entry.endpoint(), entry.parameters(), List.of(),
                List.of(), entry.channels());
    }

    /** Whether the entry asks for no change. */
    static boolean isEmpty(ProtocolConfig entry) {
        return entry.addedSensors().isEmpty() && entry.removedSensors().isEmpty();
    }

    /**
     * The PCML entry of a running protocol: the plugin's entry with the changes from the sensors it
     * opened with to the sensors it serves now. A sensor whose description changed under its id is
     * both removed and added.
     */
    static ProtocolConfig entry(ProtocolConfig pluginConfig, List<SensorDescription> opened,
                                List<SensorDescription> current) {
        List<String> removed = new ArrayList<>();
        for (SensorDescription d : opened) {
            if (!current.contains(d)) {
                removed.add(d.id());
            }
        }
        List<SensorDescription> added = new ArrayList<>();
        for (SensorDescription d : current) {
            if (!opened.contains(d)) {
                added.add(d);
            }
        }
        return new ProtocolConfig(pluginConfig.name(), pluginConfig.type(), pluginConfig.endpoint(),
                pluginConfig.parameters(), added, removed, pluginConfig.channels());
    }

    /**
     * Removes and adds the entry's sensors on the protocol just opened from it.
     *
     * @throws CallException PLUGIN_FAILURE when the protocol refuses one, naming it
     */
    static void applyTo(ProtocolConfig entry, SensorProtocol protocol) throws CallException {
        String name = entry.name();
        for (String id : entry.removedSensors()) {
            try {
                protocol.removeSensor(id);
            } catch (PluginException | RuntimeException e) {
                throw new CallException(ErrorCode.PLUGIN_FAILURE, "protocol " + name + " could not remove sensor " + id
                        + " as its <removedSensor id=\"" + id + "\"/> asks: " + SensorManager.message(e));
            }
        }
        for (SensorDescription d : entry.addedSensors()) {
            try {
                protocol.addSensor(d);
            } catch (PluginException | RuntimeException e) {
                throw new CallException(ErrorCode.PLUGIN_FAILURE, "protocol " + name + " could not add sensor "
                        + d.id() + " as its <sensor> asks: " + SensorManager.message(e));
            }
        }
    }
}
