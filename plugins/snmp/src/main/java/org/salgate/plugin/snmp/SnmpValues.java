package org.salgate.plugin.snmp;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelValue;
import org.snmp4j.smi.Counter64;
import org.snmp4j.smi.Integer32;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UnsignedInteger32;
import org.snmp4j.smi.Variable;

/**
 * An SNMP value as the model's: Integer32 and the unsigned types (Counter32, Gauge32, TimeTicks,
 * whose raw value is hundredths of a second) as whole numbers, Counter64 as a whole number (one
 * beyond 2^63 - 1 as its decimal text), an OctetString as text when it is UTF-8 without control
 * characters and as bytes otherwise, IpAddress and OID as their text; noSuchObject, noSuchInstance
 * and endOfMibView fail the channel, naming the OID.
 */
final class SnmpValues {

    private SnmpValues() {
    }

    static ChannelValue of(String oid, Variable v) {
        if (v == null || v.isException()) {
            String what = v == null ? "no value" : v.toString();
            return ChannelValue.failed("the device has no value at OID " + oid + " (" + what + ")");
        }
        if (v instanceof Integer32 i) {
            return ChannelValue.of(Value.of((long) i.getValue()));
        }
        if (v instanceof UnsignedInteger32 u) {
            return ChannelValue.of(Value.of(u.getValue()));
        }
        if (v instanceof Counter64 c) {
            long raw = c.getValue();
            return ChannelValue.of(raw >= 0 ? Value.of(raw) : Value.of(Long.toUnsignedString(raw)));
        }
        if (v instanceof OctetString s) {
            return ChannelValue.of(text(s.getValue()));
        }
        return ChannelValue.of(Value.of(v.toString()));
    }

    private static Value text(byte[] bytes) {
        try {
            String s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
            // a trailing NUL is common in device strings; other control characters mean binary data
            String trimmed = s.replaceAll("\u0000+$", "");
            if (trimmed.chars().noneMatch(ch -> ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r')) {
                return Value.of(trimmed);
            }
        } catch (CharacterCodingException e) {
            // binary
        }
        return Value.of(bytes);
    }
}
