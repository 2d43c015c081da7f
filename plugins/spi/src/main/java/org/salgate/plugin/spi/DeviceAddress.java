package org.salgate.plugin.spi;

import java.util.Map;
import java.util.Objects;

/**
 * Where a device is: what the agent checks against the operator's allowed devices before a
 * protocol may dial it.
 */
public sealed interface DeviceAddress {

    /** How the operator names this address in {@code --device-allow}. */
    String spec();

    /**
     * A device on the network.
     *
     * @param host a host name or IP address (IPv6 without brackets)
     * @param port 1 to 65535
     */
    record Network(String host, int port) implements DeviceAddress {
        public Network {
            Objects.requireNonNull(host, "host");
            if (host.isBlank() || port < 1 || port > 65535) {
                throw new IllegalArgumentException("a network device needs a host and a port from 1 to 65535");
            }
        }

        @Override
        public String spec() {
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        }
    }

    /**
     * A device on a port of this machine, such as a serial line.
     *
     * @param path the port's device file, such as {@code /dev/ttyUSB0}
     * @param options the port's settings, such as {@code baud=9600}
     */
    record LocalPort(String path, Map<String, String> options) implements DeviceAddress {
        public LocalPort {
            Objects.requireNonNull(path, "path");
            options = Map.copyOf(options);
        }

        @Override
        public String spec() {
            return path;
        }
    }
}
