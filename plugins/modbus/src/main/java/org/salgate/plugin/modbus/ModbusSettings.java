package org.salgate.plugin.modbus;

import java.util.Locale;
import java.util.Map;
import org.salgate.plugin.spi.Settings;
import org.salgate.sensorml.ProtocolConfig;

/**
 * A Modbus protocol's parameters, checked when it opens.
 *
 * @param unitId the device's unit (slave) id, 1 to 247
 * @param timeoutMs how long a request waits for the device's answer, in milliseconds
 * @param maxRegisters the most registers one read request asks for, 1 to 125
 * @param maxGap the most unwanted registers a read request reads through to serve two channels at once
 * @param retries how many times a request the device left unanswered for timeout-ms is sent again,
 *        over TCP, on a new connection (0 to 10)
 * @param minIntervalMs the least time between the device's answer (or silence) and the next request to
 *        it, in milliseconds: for devices that need a rest between requests
 */
record ModbusSettings(int unitId, int timeoutMs, int maxRegisters, int maxGap, int retries, int minIntervalMs) {

    static ModbusSettings of(ProtocolConfig config) {
        return new ModbusSettings(
                parameter(config, "unit-id", 1, 1, 247),
                parameter(config, "timeout-ms", 1000, 1, 60_000),
                parameter(config, "max-registers", 125, 1, 125),
                parameter(config, "max-gap", 10, 0, 124),
                parameter(config, "retries", 0, 0, 10),
                parameter(config, "min-interval-ms", 0, 0, 60_000));
    }

    /**
     * A serial line's settings, from its endpoint ({@code serial:/dev/ttyUSB0?baud=19200&parity=none}):
     * by default 9600 baud, 8 data bits, even parity and 1 stop bit, the Modbus serial line
     * specification's default (its section 2.5.1).
     *
     * @param parity none, even or odd
     */
    record Serial(int baud, int dataBits, String parity, int stopBits) {

        static Serial of(Map<String, String> options) {
            try {
                String parity = options.getOrDefault("parity", "even").strip().toLowerCase(Locale.ROOT);
                if (!parity.equals("none") && !parity.equals("even") && !parity.equals("odd")) {
                    throw new IllegalArgumentException("parity '" + parity + "' is none, even or odd");
                }
                return new Serial(number("baud", options.get("baud"), 9600, 50, 4_000_000),
                        number("data-bits", options.get("data-bits"), 8, 7, 8), parity,
                        number("stop-bits", options.get("stop-bits"), 1, 1, 2));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("serial setting " + e.getMessage(), e);
            }
        }
    }

    private static int parameter(ProtocolConfig config, String name, int fallback, int min, int max) {
        try {
            return number(name, config.parameters().get(name), fallback, min, max);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Modbus protocol " + config.name() + ": parameter " + e.getMessage());
        }
    }

    private static int number(String name, String text, int fallback, int min, int max) {
        return Settings.wholeNumber(name, text, fallback, min, max);
    }
}
