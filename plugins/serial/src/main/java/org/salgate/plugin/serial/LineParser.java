package org.salgate.plugin.serial;

import java.util.Map;
import org.salgate.plugin.spi.ChannelValue;

/**
 * Turns one line an instrument wrote into the values of the channels it carries. Implementations
 * are built from a protocol's configuration, which they check, and are not thread-safe: one
 * port's reader thread calls one parser.
 */
interface LineParser {

    /**
     * The raw values the line gives, by channel name; empty for a line that carries none of the
     * configured channels (an NMEA sentence of another kind, say).
     *
     * @param line the line without its end ({@code \r\n} or {@code \n})
     * @throws UnparsableLineException when the line is not what the format says (a bad checksum, a
     *         line the pattern does not match, a field that is not a number)
     */
    Map<String, ChannelValue> parse(String line) throws UnparsableLineException;

    /** A line a parser refuses, and why. */
    final class UnparsableLineException extends Exception {
        UnparsableLineException(String message) {
            super(message);
        }
    }
}
