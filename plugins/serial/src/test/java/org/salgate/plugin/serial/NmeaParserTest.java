package org.salgate.plugin.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelValue;

class NmeaParserTest {

    static final String RMC = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A";
    static final String GGA = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47";

    private static NmeaParser parser() {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String f : NmeaParser.FIELDS.keySet()) {
            fields.put(f, f);
        }
        return new NmeaParser(fields);
    }

    private static double number(Map<String, ChannelValue> values, String channel) {
        return ((Value.Num) values.get(channel).value()).value();
    }

    @Test
    void ggaGivesPositionInDecimalDegreesAltitudeFixAndSatellitesStampedWithTheLastRmcDate() throws Exception {
        NmeaParser p = parser();
        p.parse(RMC);
        Map<String, ChannelValue> v = p.parse(GGA);
        assertEquals(48.1173, number(v, "latitude"), 1e-9);
        assertEquals(11.516666666, number(v, "longitude"), 1e-6);
        assertEquals(545.4, number(v, "altitude"), 1e-9);
        assertEquals(Value.of(1L), v.get("fix-quality").value());
        assertEquals(Value.of(8L), v.get("satellites").value());
        assertEquals(Instant.parse("1994-03-23T12:35:19Z").toEpochMilli() * 1000, v.get("altitude").deviceTimeMicros());
    }

    @Test
    void rmcGivesSpeedCourseValidityAndTheDeviceTime() throws Exception {
        Map<String, ChannelValue> v = parser().parse(RMC);
        assertEquals(22.4, number(v, "speed"), 1e-9);
        assertEquals(84.4, number(v, "course"), 1e-9);
        assertEquals(Value.of(1L), v.get("valid").value());
        assertEquals(Instant.parse("1994-03-23T12:35:19Z").toEpochMilli() * 1000, v.get("speed").deviceTimeMicros());
    }

    @Test
    void southAndWestAreNegativeAndAnEmptyFixGivesNoPosition() throws Exception {
        String s = "$GPGGA,000001,3352.000,S,15112.000,W,1,05,1.0,10.0,M,,M,,";
        Map<String, ChannelValue> v = parser().parse(s + "*" + String.format("%02X", sum(s)));
        assertEquals(-33.866666, number(v, "latitude"), 1e-5);
        assertEquals(-151.2, number(v, "longitude"), 1e-9);
        String noFix = "$GPGGA,000001,,,,,0,00,,,M,,M,,";
        Map<String, ChannelValue> none = parser().parse(noFix + "*" + String.format("%02X", sum(noFix)));
        assertTrue(!none.containsKey("latitude") && none.get("fix-quality").value().equals(Value.of(0L)), none.toString());
    }

    @Test
    void aBadChecksumOrAMissingOneIsRefusedSayingSo() {
        var bad = assertThrows(LineParser.UnparsableLineException.class, () -> parser().parse(GGA.replace("*47", "*48")));
        assertTrue(bad.getMessage().contains("bad NMEA checksum"), bad.getMessage());
        var none = assertThrows(LineParser.UnparsableLineException.class,
                () -> parser().parse(GGA.substring(0, GGA.indexOf('*'))));
        assertTrue(none.getMessage().contains("without its checksum"), none.getMessage());
        assertThrows(LineParser.UnparsableLineException.class, () -> parser().parse("garbage"));
    }

    @Test
    void otherSentencesGiveNoValues() throws Exception {
        String gsv = "$GPGSV,1,1,00";
        assertEquals(Map.of(), parser().parse(gsv + "*" + String.format("%02X", sum(gsv))));
    }

    @Test
    void anUnknownFieldIsRefusedNamingTheChannelAndTheFields() {
        var e = assertThrows(IllegalArgumentException.class, () -> new NmeaParser(Map.of("x", "height")));
        assertTrue(e.getMessage().contains("channel x") && e.getMessage().contains("altitude"), e.getMessage());
    }

    static int sum(String sentence) {
        int s = 0;
        for (int i = 1; i < sentence.length(); i++) {
            s ^= sentence.charAt(i);
        }
        return s;
    }
}
