package org.salgate.agent.endpoint;

import java.util.Objects;
import org.salgate.plugin.spi.Endpoint;

/**
 * An endpoint that is only its type and address; what it means is up to the plugin bound to it.
 *
 * @param type the endpoint type
 * @param address the address within the type, possibly empty
 */
public record SimpleEndpoint(String type, String address) implements Endpoint {
    public SimpleEndpoint {
        Objects.requireNonNull(type, "type");
        address = address == null ? "" : address;
    }

    @Override
    public String toString() {
        return spec();
    }
}
