package org.salgate.bench.run;

import java.util.List;
import java.util.Locale;

/**
 * How a cell's connections are made: in plain text, or over TLS. A run may measure a transport
 * both ways ({@code --security plain,tls}); its TLS cells are then named {@code <transport>+tls}
 * so that the two sit side by side in the results and the report can set one against the other.
 */
public enum Security {
    PLAIN,
    TLS;

    /** What a TLS cell's transport name ends with. */
    public static final String TLS_SUFFIX = "+tls";

    /** Parses {@code plain} or {@code tls}. */
    public static Security parse(String name) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "plain" -> PLAIN;
            case "tls" -> TLS;
            default -> throw new IllegalArgumentException("unknown security '" + name + "'; use plain, tls or plain,tls");
        };
    }

    /** The name a transport's cells carry when run this way: the transport itself, or {@code <transport>+tls}. */
    public String cellName(String transport) {
        return this == TLS ? transport + TLS_SUFFIX : transport;
    }

    /** The security of a cell's transport name. */
    public static Security of(String cellName) {
        return cellName.endsWith(TLS_SUFFIX) ? TLS : PLAIN;
    }

    /** The transport a cell name stands for, without {@value #TLS_SUFFIX}. */
    public static String transportOf(String cellName) {
        return of(cellName) == TLS ? cellName.substring(0, cellName.length() - TLS_SUFFIX.length()) : cellName;
    }

    /** The security list of a run, checked: at least one, no repeats, plain first. */
    public static List<Security> checked(List<Security> list) {
        if (list.isEmpty()) {
            throw new IllegalArgumentException("name at least one of plain, tls for --security");
        }
        if (list.stream().distinct().count() != list.size()) {
            throw new IllegalArgumentException("--security names " + list + " more than once");
        }
        return list.stream().sorted().toList();
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
