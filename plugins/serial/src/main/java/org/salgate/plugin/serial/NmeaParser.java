package org.salgate.plugin.serial;

import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelValue;

/**
 * NMEA 0183 sentences, as GPS receivers write them: {@code $GPGGA,...*hh} and {@code $GPRMC,...*hh}
 * (any talker: GP, GN, GL, GA...). The checksum is verified and required; other sentences (GSV,
 * GSA, VTG...) are let through without values. The fields a channel names in its {@code field}
 * attribute:
 * <ul>
 *   <li>from GGA: {@code latitude} and {@code longitude} (decimal degrees, south and west negative),
 *       {@code altitude} (m above mean sea level), {@code fix-quality} (0 none, 1 GPS, 2 DGPS...),
 *       {@code satellites} (in use), {@code hdop};</li>
 *   <li>from RMC: {@code latitude} and {@code longitude} too, {@code speed} (over ground, knots),
 *       {@code course} (over ground, degrees true), {@code valid} (1 for status A, 0 for V).</li>
 * </ul>
 * A field the sentence leaves empty (no fix) gives no value. RMC carries the UTC date and time,
 * stamped on its values as the device's time; GGA carries the time only, and its values get the
 * date of the last RMC (no device time before the first RMC).
 */
final class NmeaParser implements LineParser {

    /** The fields a channel may name, and the sentences that give them. */
    static final Map<String, Set<String>> FIELDS = fields();
    /** The longest sentence NMEA 0183 allows is 82 characters; some receivers write longer ones. */
    private static final int MAX_FIELDS = 40;

    private final Map<String, List<String>> channelsByField = new HashMap<>();
    private LocalDate lastDate;

    /**
     * @param channelFields the NMEA field of each channel, by channel name
     * @throws IllegalArgumentException naming a channel whose field is not one of {@link #FIELDS}
     */
    NmeaParser(Map<String, String> channelFields) {
        channelFields.forEach((channel, field) -> {
            if (!FIELDS.containsKey(field)) {
                throw new IllegalArgumentException("channel " + channel + ": NMEA field '" + field + "' is unknown;"
                        + " the fields are " + String.join(", ", FIELDS.keySet()));
            }
            channelsByField.computeIfAbsent(field, f -> new java.util.ArrayList<>()).add(channel);
        });
    }

    private static Map<String, Set<String>> fields() {
        Map<String, Set<String>> f = new LinkedHashMap<>();
        f.put("latitude", Set.of("GGA", "RMC"));
        f.put("longitude", Set.of("GGA", "RMC"));
        f.put("altitude", Set.of("GGA"));
        f.put("fix-quality", Set.of("GGA"));
        f.put("satellites", Set.of("GGA"));
        f.put("hdop", Set.of("GGA"));
        f.put("speed", Set.of("RMC"));
        f.put("course", Set.of("RMC"));
        f.put("valid", Set.of("RMC"));
        return Map.copyOf(f);
    }

    @Override
    public Map<String, ChannelValue> parse(String line) throws UnparsableLineException {
        String body = checked(line.strip());
        String[] f = body.split(",", MAX_FIELDS + 1);
        if (f.length > MAX_FIELDS) {
            throw new UnparsableLineException("NMEA sentence of more than " + MAX_FIELDS + " fields");
        }
        String type = f[0].length() >= 3 ? f[0].substring(f[0].length() - 3) : "";
        Map<String, Value> values = new HashMap<>();
        long time;
        switch (type) {
            case "GGA" -> {
                need(f, 10, "GGA");
                LocalTime t = time(f[1]);
                time = t == null || lastDate == null ? 0 : micros(lastDate, t);
                position(values, f[2], f[3], f[4], f[5]);
                integer(values, "fix-quality", f[6]);
                integer(values, "satellites", f[7]);
                number(values, "hdop", f[8]);
                number(values, "altitude", f[9]);
            }
            case "RMC" -> {
                need(f, 10, "RMC");
                LocalTime t = time(f[1]);
                LocalDate d = date(f[9]);
                if (d != null) {
                    lastDate = d;
                }
                time = t == null || d == null ? 0 : micros(d, t);
                if (!f[2].isEmpty()) {
                    values.put("valid", Value.of(f[2].equals("A") ? 1L : 0L));
                }
                position(values, f[3], f[4], f[5], f[6]);
                number(values, "speed", f[7]);
                number(values, "course", f[8]);
            }
            default -> {
                return Map.of();
            }
        }
        Map<String, ChannelValue> out = new HashMap<>();
        values.forEach((field, v) -> {
            for (String channel : channelsByField.getOrDefault(field, List.of())) {
                out.put(channel, new ChannelValue(v, time, null));
            }
        });
        return out;
    }

    /** The sentence between {@code $} and {@code *}, its checksum verified. */
    private static String checked(String line) throws UnparsableLineException {
        if (!line.startsWith("$") && !line.startsWith("!")) {
            throw new UnparsableLineException("not an NMEA sentence (no leading '$'): '"
                    + FieldType.shortened(line) + "'");
        }
        int star = line.lastIndexOf('*');
        if (star < 0 || star != line.length() - 3) {
            throw new UnparsableLineException("NMEA sentence without its checksum ('*' and two hex digits at the end)");
        }
        int sum = 0;
        for (int i = 1; i < star; i++) {
            sum ^= line.charAt(i);
        }
        int given;
        try {
            given = Integer.parseInt(line.substring(star + 1), 16);
        } catch (NumberFormatException e) {
            throw new UnparsableLineException("NMEA checksum '" + line.substring(star + 1) + "' is not hexadecimal");
        }
        if ((sum & 0xff) != given || sum > 0xff) {
            throw new UnparsableLineException(String.format("bad NMEA checksum: the sentence sums to %02X, it says %s",
                    sum & 0xff, line.substring(star + 1)));
        }
        return line.substring(1, star);
    }

    private static void need(String[] f, int n, String type) throws UnparsableLineException {
        if (f.length < n) {
            throw new UnparsableLineException(type + " sentence of " + f.length + " fields; it has at least " + n);
        }
    }

    private static void position(Map<String, Value> values, String lat, String ns, String lon, String ew)
            throws UnparsableLineException {
        if (!lat.isEmpty()) {
            values.put("latitude", Value.of(degrees(lat, 2, ns, "N", "S", 90)));
        }
        if (!lon.isEmpty()) {
            values.put("longitude", Value.of(degrees(lon, 3, ew, "E", "W", 180)));
        }
    }

    /** {@code ddmm.mmmm} (or {@code dddmm.mmmm}) and a hemisphere, in signed decimal degrees. */
    private static double degrees(String text, int degreeDigits, String hemisphere, String plus, String minus,
                                  double limit) throws UnparsableLineException {
        int dot = text.indexOf('.');
        int minutesAt = (dot < 0 ? text.length() : dot) - 2;
        if (minutesAt != degreeDigits || !hemisphere.equals(plus) && !hemisphere.equals(minus)) {
            throw new UnparsableLineException("NMEA position '" + FieldType.shortened(text) + "," + hemisphere
                    + "' is not " + "d".repeat(degreeDigits) + "mm.mmmm," + plus + "|" + minus);
        }
        try {
            int deg = Integer.parseInt(text.substring(0, minutesAt));
            double minutes = Double.parseDouble(text.substring(minutesAt));
            if (text.charAt(0) == '-' || text.charAt(0) == '+' || minutes < 0 || minutes >= 60) {
                throw new NumberFormatException();
            }
            double d = deg + minutes / 60;
            if (d > limit) {
                throw new NumberFormatException();
            }
            return hemisphere.equals(minus) ? -d : d;
        } catch (NumberFormatException e) {
            throw new UnparsableLineException("NMEA position '" + FieldType.shortened(text) + "' is not a position");
        }
    }

    private static void integer(Map<String, Value> values, String field, String text) throws UnparsableLineException {
        if (!text.isEmpty()) {
            values.put(field, FieldType.INTEGER.parse(text, "NMEA " + field));
        }
    }

    private static void number(Map<String, Value> values, String field, String text) throws UnparsableLineException {
        if (!text.isEmpty()) {
            values.put(field, FieldType.NUMBER.parse(text, "NMEA " + field));
        }
    }

    /** {@code hhmmss} or {@code hhmmss.sss}; null when empty. */
    private static LocalTime time(String text) throws UnparsableLineException {
        if (text.isEmpty()) {
            return null;
        }
        try {
            if (text.length() < 6 || !text.substring(0, 6).chars().allMatch(Character::isDigit)) {
                throw new NumberFormatException();
            }
            int nanos = 0;
            if (text.length() > 6) {
                String frac = text.substring(6);
                if (!frac.matches("\\.[0-9]{1,9}")) {
                    throw new NumberFormatException();
                }
                nanos = Integer.parseInt((frac.substring(1) + "000000000").substring(0, 9));
            }
            return LocalTime.of(Integer.parseInt(text.substring(0, 2)), Integer.parseInt(text.substring(2, 4)),
                    Integer.parseInt(text.substring(4, 6)), nanos);
        } catch (RuntimeException e) {
            throw new UnparsableLineException("NMEA time '" + FieldType.shortened(text) + "' is not hhmmss.sss");
        }
    }

    /** {@code ddmmyy}, years 80 to 99 read as 1980 to 1999 and 00 to 79 as 2000 to 2079; null when empty. */
    private static LocalDate date(String text) throws UnparsableLineException {
        if (text.isEmpty()) {
            return null;
        }
        try {
            if (!text.matches("[0-9]{6}")) {
                throw new NumberFormatException();
            }
            int yy = Integer.parseInt(text.substring(4, 6));
            return LocalDate.of(yy >= 80 ? 1900 + yy : 2000 + yy, Integer.parseInt(text.substring(2, 4)),
                    Integer.parseInt(text.substring(0, 2)));
        } catch (RuntimeException e) {
            throw new UnparsableLineException("NMEA date '" + FieldType.shortened(text) + "' is not ddmmyy");
        }
    }

    private static long micros(LocalDate date, LocalTime time) {
        return date.atTime(time).toEpochSecond(ZoneOffset.UTC) * 1_000_000 + time.getNano() / 1000;
    }
}
