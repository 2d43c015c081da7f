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
     * Opens one protocol of this type, as configured by a PCML protocol entry.
     *
     * @param config the protocol's name, type, endpoint and parameters
     * @param context what the agent offers the protocol, such as its endpoint
     * @throws PluginException if the configuration is wrong or the endpoint cannot be used
     */
    SensorProtocol open(ProtocolConfig config, PluginContext context) throws PluginException;
}
