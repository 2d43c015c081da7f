package org.salgate.bench.run;

import java.util.Objects;

/**
 * One measured scenario, without its repetition number.
 *
 * @param level transport or agent level
 * @param transport the transport name, or {@value #RAW} for the framework-free ceiling
 * @param method the test method
 * @param dataType the payload, such as {@code Integer} or {@code 80 KB}
 * @param clients how many clients ran at once
 */
public record CellKey(Level level, String transport, Method method, String dataType, int clients) {

    /** The pseudo-transport name of the framework-free socket ceiling. */
    public static final String RAW = "raw-socket";

    public CellKey {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(dataType, "dataType");
        if (clients <= 0) {
            throw new IllegalArgumentException("clients must be positive, got " + clients);
        }
    }

    @Override
    public String toString() {
        return transport + " " + method.id() + " " + dataType + " x" + clients;
    }
}
