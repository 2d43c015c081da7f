package org.salgate.agent.endpoint;

import org.salgate.plugin.spi.Endpoint;

/**
 * Makes the endpoints of one type from the address part of a PCML endpoint specification
 * ({@code type:address}). The agent knows {@code os} and {@code virtual}; others are registered
 * with {@link Endpoints#register} (see the package documentation for the {@code agent} type).
 */
public interface EndpointFactory {

    /** The endpoint type this factory makes, such as {@code os}; lower case. */
    String type();

    /**
     * An endpoint of this type at {@code address}.
     *
     * @param address the part after {@code type:}, or the empty string when there is none
     * @throws EndpointException if the address is not valid for this type
     */
    Endpoint create(String address) throws EndpointException;
}
