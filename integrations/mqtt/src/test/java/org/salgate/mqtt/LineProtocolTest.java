package org.salgate.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.salgate.model.Reading;
import org.salgate.model.Value;
import org.salgate.mqtt.report.Report;

class LineProtocolTest {

    private static final long T = 1_700_000_000_123_456L; // microseconds
    private final LineProtocol us = new LineProtocol("salgate", "gw-1", LineProtocol.Precision.US);

    private static Reading ok(String sensor, Value v, String unit) {
        return new Reading(sensor, T, 7, v, Reading.Status.OK, "", unit, 0);
    }

    @Test
    void decimalIsAFloatAndTagsNameAgentSensorCommandAndUnit() {
        assertEquals("salgate,agent=gw-1,sensor=TEMP,command=read,unit=Cel value=21.5,sequence=7i,status=\"OK\" "
                + T, us.reading(ok("TEMP", Value.of(21.5), "Cel"), "read"));
    }

    @Test
    void integerHasTheISuffixAndAnEmptyUnitIsLeftOut() {
        assertEquals("salgate,agent=gw-1,sensor=COUNT,command=read value=42i,sequence=7i,status=\"OK\" " + T,
                us.reading(ok("COUNT", Value.of(42L), ""), "read"));
    }

    @Test
    void largeAndSmallDecimalsAreWrittenWithoutExponent() {
        // a number without the i suffix is a float in line protocol, with or without a decimal point
        assertEquals("value=10000000000,", field(us.reading(ok("X", Value.of(1e10), ""), "read")));
        assertEquals("value=0.00000015,", field(us.reading(ok("X", Value.of(1.5e-7), ""), "read")));
    }

    @Test
    void notFiniteNumberHasNoValueField() {
        assertEquals("salgate,agent=gw-1,sensor=X,command=read sequence=7i,status=\"OK\" " + T,
                us.reading(ok("X", Value.of(Double.NaN), ""), "read"));
    }

    @Test
    void textIsAQuotedStringWithQuotesAndBackslashesEscaped() {
        assertEquals("value=\"say \\\"hi\\\" C:\\\\tmp\\\\\nnext\",",
                field(us.reading(ok("X", Value.of("say \"hi\" C:\\tmp\\\nnext"), ""), "read")));
    }

    @Test
    void bytesAreBase64() {
        assertEquals("value=\"AQID/w==\",",
                field(us.reading(ok("X", Value.of(new byte[] {1, 2, 3, (byte) 0xff}), ""), "read")));
    }

    @Test
    void failedReadingHasStatusAndErrorButNoValue() {
        Reading r = Reading.error("X", T, 3, "timed out after \"5 s\"");
        assertEquals("salgate,agent=gw-1,sensor=X,command=read sequence=3i,status=\"ERROR\","
                + "error=\"timed out after \\\"5 s\\\"\" " + T, us.reading(r, "read"));
    }

    @Test
    void measurementEscapesCommasAndSpacesTagsAlsoEqualsSigns() {
        LineProtocol p = new LineProtocol("lab data,1", "my agent", LineProtocol.Precision.US);
        assertEquals("lab\\ data\\,1,agent=my\\ agent,sensor=a\\,b\\=c\\ d,command=r\\=1,unit=m/s "
                        + "value=1i,sequence=7i,status=\"OK\" " + T,
                p.reading(ok("a,b=c d", Value.of(1L), "m/s"), "r=1"));
    }

    @Test
    void lineBreakInATagBecomesAnEscapedSpace() {
        assertEquals("sensor=a\\ b", us.reading(ok("a\nb", Value.of(1L), ""), "read").split(",")[2]);
    }

    @Test
    void backslashThatWouldEscapeTheSeparatorBecomesUnderscore() {
        String line = us.reading(ok("dir\\", Value.of(1L), "a\\b"), "x\\,y");
        assertEquals("salgate,agent=gw-1,sensor=dir_,command=x_\\,y,unit=a\\b value=1i,sequence=7i,status=\"OK\" "
                + T, line);
    }

    @Test
    void deviceTimeWinsOverTheAgentsAndPrecisionTruncates() {
        long device = 1_600_000_000_987_654L;
        Reading r = new Reading("X", T, 0, Value.of(1L), Reading.Status.OK, "", "", device);
        assertEquals("1600000000987654000", timestamp(new LineProtocol("m", "a", LineProtocol.Precision.NS)
                .reading(r, "read")));
        assertEquals("1600000000987654", timestamp(us.reading(r, "read")));
        assertEquals("1600000000987", timestamp(new LineProtocol("m", "a", LineProtocol.Precision.MS)
                .reading(r, "read")));
        assertEquals("1600000000", timestamp(new LineProtocol("m", "a", LineProtocol.Precision.S)
                .reading(r, "read")));
    }

    @Test
    void precisionNamesForBothApiVersions() {
        assertEquals(LineProtocol.Precision.NS, LineProtocol.Precision.parse("ns"));
        assertEquals("n", LineProtocol.Precision.NS.v1Name());
        assertEquals("u", LineProtocol.Precision.parse("US").v1Name());
        assertEquals("us", LineProtocol.Precision.US.v2Name());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LineProtocol.Precision.parse("h"));
        assertEquals("timestamp precision 'h' is not one of ns, us, ms, s", e.getMessage());
    }

    @Test
    void measurementThatWouldBeACommentIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new LineProtocol("#m", "a", LineProtocol.Precision.US));
        assertThrows(IllegalArgumentException.class, () -> new LineProtocol(" ", "a", LineProtocol.Precision.US));
    }

    @Test
    void aWindowIsOnePointTaggedAsAnAggregateWithItsFiguresAtItsEnd() {
        Report.Window w = new Report.Window("T1", 1_600_000_000_000_000L, java.time.Duration.ofSeconds(10), 4, 20.0,
                23.0, 21.25, "Cel");
        assertEquals("salgate,agent=gw-1,sensor=T1,command=read,unit=Cel,aggregate=window value=21.25,count=4i,"
                + "min=20.0,max=23.0,mean=21.25,status=\"OK\" 1600000010000000", us.line(w, "read"));
    }

    @Test
    void payloadIsTheLineInUtf8() {
        Reading r = ok("température", Value.of(1L), "");
        assertEquals(us.reading(r, "read"), new String(us.payload(r, "read"), StandardCharsets.UTF_8));
    }

    /** The part of a line from {@code value=} to the comma after the value. */
    private static String field(String line) {
        int start = line.indexOf("value=");
        int end = line.indexOf(",sequence=");
        return line.substring(start, end + 1);
    }

    private static String timestamp(String line) {
        return line.substring(line.lastIndexOf(' ') + 1);
    }
}
