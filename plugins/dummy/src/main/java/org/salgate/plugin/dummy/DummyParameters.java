package org.salgate.plugin.dummy;

import java.util.Set;
import org.salgate.plugin.spi.PluginException;
import org.salgate.sensorml.ProtocolConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PCML parameters of a dummy protocol.
 *
 * @param sensors how many sensors {@code <prefix>_0..<prefix>_{n-1}} the protocol starts with
 * @param payloadBytes the size of a {@code payload} reading when the {@code size} argument is left out
 * @param prefix the start of the sensor ids, {@code DUMMY} by default; a second dummy protocol on
 *               one agent needs another prefix, since sensor ids are unique on an agent
 */
public record DummyParameters(int sensors, int payloadBytes, String prefix) {

    public static final String SENSORS = "sensors";
    public static final String PAYLOAD_BYTES = "payloadBytes";
    public static final String PREFIX = "prefix";
    public static final String DEFAULT_PREFIX = "DUMMY";
    public static final int DEFAULT_SENSORS = 20;
    public static final int DEFAULT_PAYLOAD_BYTES = 64;
    /** Enough for any benchmark; more would only be a typo costing memory. */
    public static final int MAX_SENSORS = 100_000;
    /** 16 MiB: the largest payload a single reading may carry. */
    public static final int MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(DummyParameters.class);
    private static final Set<String> KNOWN = Set.of(SENSORS, PAYLOAD_BYTES, PREFIX);
    /** Letters, digits, '_', '-' and '.': safe in sensor ids, CLI arguments and gml:ids. */
    private static final java.util.regex.Pattern PREFIX_SYNTAX = java.util.regex.Pattern.compile("[A-Za-z][A-Za-z0-9_.-]{0,63}");

    public DummyParameters {
        if (sensors < 0 || sensors > MAX_SENSORS) {
            throw new IllegalArgumentException("sensors must be 0.." + MAX_SENSORS + ", got " + sensors);
        }
        if (payloadBytes < 0 || payloadBytes > MAX_PAYLOAD_BYTES) {
            throw new IllegalArgumentException("payloadBytes must be 0.." + MAX_PAYLOAD_BYTES + ", got " + payloadBytes);
        }
        if (prefix == null || !PREFIX_SYNTAX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("prefix must be a letter followed by letters, digits, '_', '-' or '.'"
                    + ", got " + prefix);
        }
    }

    /** The id of the {@code index}th sensor. */
    public String sensorId(int index) {
        return prefix + "_" + index;
    }

    /**
     * Reads the parameters of a protocol entry, using the defaults for those left out. Unknown
     * parameters are logged and ignored.
     *
     * @throws PluginException if a value is not a whole number within its range
     */
    public static DummyParameters of(ProtocolConfig config) throws PluginException {
        for (String key : config.parameters().keySet()) {
            if (!KNOWN.contains(key)) {
                LOG.warn("Protocol {} ignores unknown parameter '{}'; a dummy protocol takes {}, {} and {}.",
                        config.name(), key, SENSORS, PAYLOAD_BYTES, PREFIX);
            }
        }
        int sensors = wholeNumber(config, SENSORS, DEFAULT_SENSORS, MAX_SENSORS);
        int payloadBytes = wholeNumber(config, PAYLOAD_BYTES, DEFAULT_PAYLOAD_BYTES, MAX_PAYLOAD_BYTES);
        String prefix = config.parameter(PREFIX, DEFAULT_PREFIX).trim();
        if (!PREFIX_SYNTAX.matcher(prefix).matches()) {
            throw new PluginException("Parameter " + PREFIX + " of protocol " + config.name()
                    + " must start with a letter and hold only letters, digits, '_', '-' or '.', not '" + prefix + "'.");
        }
        return new DummyParameters(sensors, payloadBytes, prefix);
    }

    private static int wholeNumber(ProtocolConfig config, String key, int fallback, int max) throws PluginException {
        String raw = config.parameters().get(key);
        if (raw == null) {
            return fallback;
        }
        long value;
        try {
            value = Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            value = -1;
        }
        if (value < 0 || value > max) {
            throw new PluginException("Parameter " + key + " of protocol " + config.name()
                    + " must be a whole number from 0 to " + max + ", not '" + raw + "'.");
        }
        return (int) value;
    }
}
