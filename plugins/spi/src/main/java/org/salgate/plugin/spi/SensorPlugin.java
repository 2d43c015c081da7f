package org.salgate.plugin.spi;

import org.salgate.sensorml.ProtocolConfig;

/**
 * Sensor support that the agent loads at run time: a factory of {@link SensorProtocol}s of one
 * type. SAL calls a configured instance of a plugin a <em>protocol</em>.
 *
 * <p>Registration contract: a public zero-argument constructor, and the class named in
 * {@code META-INF/services/org.salgate.plugin.spi.SensorPlugin}. The constructor and
 * {@link #type()} must not throw. Two plugins with the same type are refused by the agent.
 */
public interface SensorPlugin {

    /** The plugin type named in PCML, such as {@code dummy} or {@code os}; lower case, unique. */
    String type();

    /** A one-line description for listings. */
    default String description() {
        return type();
    }

    /**
     * The endpoint types this plugin brings, such as {@code tcp} or {@code serial}, which the agent
     * adds to its endpoint layer when it loads the plugin; empty by default. Two plugins that bring
     * one type are refused, unless they bring the same syntax: device drivers share {@code tcp}
     * and {@code serial} ({@link EndpointType#network}, {@link EndpointType#serial}).
     */
    default java.util.List<EndpointType> endpointTypes() {
        return java.util.List.of();
    }

    /**
     * Opens one protocol of this type, as configured by a PCML protocol entry.
     *
     * @param config the protocol's name, type, endpoint and parameters
     * @param context what the agent offers the protocol, such as its endpoint
     * @throws PluginException if the configuration is wrong or the endpoint cannot be used
     */
    SensorProtocol open(ProtocolConfig config, PluginContext context) throws PluginException;
}
