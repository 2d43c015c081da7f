package org.salgate.mqtt;

import java.math.BigDecimal;
import java.util.Base64;
import java.util.Locale;
import java.util.Objects;
import org.salgate.model.Reading;
import org.salgate.model.Value;
import org.salgate.mqtt.report.Report;

/**
 * Readings in InfluxDB line protocol, one point a reading:
 * <pre>MEASUREMENT,agent=A,sensor=S,command=C,unit=U value=V,sequence=Ni,status="OK" TIMESTAMP</pre>
 * <ul>
 * <li>tags {@code agent}, {@code sensor}, {@code command}, {@code unit}; a tag whose value is empty
 *     (a sensor without a unit) is left out, as line protocol has no empty tag values;</li>
 * <li>field {@code value}: a decimal number as a float, an integer with the {@code i} suffix, text as a
 *     string, bytes as a base64 string; left out when the reading has no value (its status is not OK)
 *     or the number is not finite (InfluxDB stores no NaN nor infinity);</li>
 * <li>field {@code sequence}: the reading's number on its stream (integer), which shows gaps;</li>
 * <li>field {@code status}: {@code OK}, {@code UNAVAILABLE}, {@code ERROR} or {@code DISCONNECTED};
 *     field {@code error}: why, when the status is not OK;</li>
 * <li>timestamp: the device's time when the device stamped the value, else the agent's, in the
 *     precision asked for (truncated from the reading's microseconds).</li>
 * </ul>
 * Escaping follows the line protocol reference: in the measurement, commas and spaces; in tag keys,
 * tag values and field keys, commas, equals signs and spaces; in string field values, double quotes
 * and backslashes. Line protocol cannot carry a line break outside a string field, so a line break
 * in a name or tag value becomes a space. InfluxDB keeps other backslashes of names and tag values
 * as they are, but cannot read one that ends a name or stands before an escaped character: such a
 * backslash becomes {@code _}. Immutable and thread-safe.
 */
public final class LineProtocol {

    /** The measurement when none is configured. */
    public static final String DEFAULT_MEASUREMENT = "salgate";

    /** The precision of timestamps; InfluxDB must be told the same one ({@code precision=}). */
    public enum Precision {
        NS("n", "ns", 1000, 1), US("u", "us", 1, 1), MS("ms", "ms", 1, 1000), S("s", "s", 1, 1_000_000);

        private final String v1;
        private final String v2;
        private final long multiply;
        private final long divide;

        Precision(String v1, String v2, long multiply, long divide) {
            this.v1 = v1;
            this.v2 = v2;
            this.multiply = multiply;
            this.divide = divide;
        }

        /** The {@code precision} parameter of InfluxDB 1.x's {@code /write}. */
        public String v1Name() {
            return v1;
        }

        /** The {@code precision} parameter of InfluxDB 2.x's {@code /api/v2/write}. */
        public String v2Name() {
            return v2;
        }

        /** A time in microseconds since the epoch in this precision. */
        public long fromMicros(long micros) {
            return Math.multiplyExact(Math.floorDiv(micros, divide), multiply);
        }

        /**
         * Parses {@code ns}, {@code us}, {@code ms} or {@code s}.
         *
         * @throws IllegalArgumentException naming the accepted values
         */
        public static Precision parse(String text) {
            for (Precision p : values()) {
                if (p.v2.equals(text.toLowerCase(Locale.ROOT))) {
                    return p;
                }
            }
            throw new IllegalArgumentException("timestamp precision '" + text + "' is not one of ns, us, ms, s");
        }
    }

    private final String measurement;
    private final String agentTag;
    private final Precision precision;

    /**
     * @param measurement the measurement of every point, not empty and not beginning with {@code #}
     *                    (such a line would be a comment)
     * @param agentId the {@code agent} tag
     */
    public LineProtocol(String measurement, String agentId, Precision precision) {
        Objects.requireNonNull(measurement, "measurement");
        if (measurement.isBlank() || measurement.startsWith("#")) {
            throw new IllegalArgumentException("InfluxDB measurement '" + measurement + "' is not usable: give a"
                    + " non-blank name that does not begin with #, such as " + DEFAULT_MEASUREMENT);
        }
        this.measurement = escape(measurement, ", ");
        this.agentTag = agentId.isEmpty() ? "" : ",agent=" + tag(agentId);
        this.precision = Objects.requireNonNull(precision, "precision");
    }

    public Precision precision() {
        return precision;
    }

    /** One reading of {@code commandId} as one line, without the line break. */
    public String reading(Reading r, String commandId) {
        StringBuilder line = new StringBuilder(128).append(measurement).append(agentTag);
        appendTag(line, "sensor", r.sensorId());
        appendTag(line, "command", commandId);
        appendTag(line, "unit", r.unit());
        line.append(' ');
        String value = value(r.value());
        if (value != null) {
            line.append("value=").append(value).append(',');
        }
        line.append("sequence=").append(r.sequence()).append("i,status=").append(string(r.status().name()));
        if (r.status() != Reading.Status.OK) {
            line.append(",error=").append(string(r.error()));
        }
        long micros = r.deviceTimeMicros() != 0 ? r.deviceTimeMicros() : r.timestampMicros();
        return line.append(' ').append(precision.fromMicros(micros)).toString();
    }

    /**
     * A stream's report as one line: a reading's line, or a window's, tagged {@code aggregate=window},
     * with fields {@code value} (the mean), {@code count}, {@code min}, {@code max}, {@code mean}
     * and {@code status}, stamped at the window's end.
     */
    public String line(Report r, String commandId) {
        if (r instanceof Report.Sent s) {
            return reading(s.reading(), commandId);
        }
        Report.Window w = (Report.Window) r;
        StringBuilder line = new StringBuilder(160).append(measurement).append(agentTag);
        appendTag(line, "sensor", w.sensorId());
        appendTag(line, "command", commandId);
        appendTag(line, "unit", w.unit());
        appendTag(line, "aggregate", "window");
        line.append(" value=").append(number(w.mean())).append(",count=").append(w.count()).append("i,min=")
                .append(number(w.min())).append(",max=").append(number(w.max())).append(",mean=")
                .append(number(w.mean())).append(",status=").append(string(Reading.Status.OK.name()));
        return line.append(' ').append(precision.fromMicros(w.endMicros())).toString();
    }

    /** The reading as the bytes of one line (UTF-8, no line break): an MQTT payload. */
    public byte[] payload(Reading r, String commandId) {
        return reading(r, commandId).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** A stream's report as the bytes of one line: an MQTT payload. */
    public byte[] report(Report r, String commandId) {
        return line(r, commandId).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** A float field: a window's figures are finite, their mean of finite readings. */
    private static String number(double d) {
        return BigDecimal.valueOf(d).toPlainString();
    }

    private static void appendTag(StringBuilder line, String key, String value) {
        if (!value.isEmpty()) {
            line.append(',').append(key).append('=').append(tag(value));
        }
    }

    /** A field value, or null for none. */
    private static String value(Value v) {
        if (v instanceof Value.Num n) {
            return Double.isFinite(n.value()) ? number(n.value()) : null;
        } else if (v instanceof Value.Int i) {
            return i.value() + "i";
        } else if (v instanceof Value.Text t) {
            return string(t.value());
        } else if (v instanceof Value.Bytes b) {
            return string(Base64.getEncoder().encodeToString(b.value()));
        }
        return null;
    }

    /** A tag key or value (or field key): commas, equals signs and spaces escaped. */
    static String tag(String s) {
        return escape(s, ",= ");
    }

    /** A string field value, quoted: double quotes and backslashes escaped. */
    static String string(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\');
            }
            b.append(c);
        }
        return b.append('"').toString();
    }

    private static String escape(String s, String special) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = lineBreakAsSpace(s.charAt(i));
            if (c == '\\' && (i == s.length() - 1 || special.indexOf(lineBreakAsSpace(s.charAt(i + 1))) >= 0)) {
                c = '_'; // InfluxDB reads backslashes literally, but one here would escape what follows
            } else if (special.indexOf(c) >= 0) {
                b.append('\\');
            }
            b.append(c);
        }
        return b.toString();
    }

    private static char lineBreakAsSpace(char c) {
        return c == '\n' || c == '\r' ? ' ' : c;
    }
}
