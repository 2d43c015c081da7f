package org.salgate.plugin.spi;

/**
 * A port sensors hang off, in SAL's endpoint layer: the operating system, a virtual port for
 * software sensors, a serial or USB port, the network, or another agent. A plugin bound to an
 * endpoint forms a <em>logical port</em>.
 */
public interface Endpoint {

    /** The endpoint type, such as {@code os}, {@code virtual}, {@code serial} or {@code agent}. */
    String type();

    /** The address within the type, such as {@code /dev/ttyUSB0}; empty when there is none. */
    String address();

    /**
     * The device this endpoint reaches, parsed by its {@link EndpointType}; empty for the agent's
     * own endpoints ({@code os}, {@code virtual}, {@code agent}).
     */
    default java.util.Optional<DeviceAddress> target() {
        return java.util.Optional.empty();
    }

    /** How PCML writes this endpoint: {@code type} or {@code type:address}. */
    default String spec() {
        return address().isEmpty() ? type() : type() + ":" + address();
    }
}
