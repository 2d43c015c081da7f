package org.salgate.wire;

import java.util.Objects;

/**
 * The first message a client sends: the protocol version it speaks, the codec it will use after
 * the handshake, a name for logs, and optional credentials.
 *
 * @param protocolVersion the wire protocol version, {@link #PROTOCOL_VERSION} for this build
 * @param codec the name of the codec used for every frame after the handshake
 * @param clientName a free-form name that shows up in the agent's logs
 * @param credentials an opaque token, or the empty string for none
 */
public record Hello(int protocolVersion, String codec, String clientName, String credentials)
        implements Message {

    /**
     * The wire protocol version spoken by this build. 2: a reading carries its unit, the device's
     * timestamp and the DISCONNECTED status, which a version-1 peer's text codecs refuse; an agent
     * and a client of different versions refuse each other at the hello, saying so.
     */
    public static final int PROTOCOL_VERSION = 2;

    public Hello {
        Objects.requireNonNull(codec, "codec");
        clientName = clientName == null ? "" : clientName;
        credentials = credentials == null ? "" : credentials;
    }

    /** A hello for this build's protocol version and the given codec. */
    public static Hello of(String codec, String clientName) {
        return new Hello(PROTOCOL_VERSION, codec, clientName, "");
    }
}
