package org.salgate.plugin.opcua;

import java.util.Map;
import org.eclipse.milo.opcua.stack.core.types.structured.EUInformation;

/**
 * A node's {@code EngineeringUnits} (an {@link EUInformation}) as the agent's unit, a UCUM code.
 * OPC UA servers name units by their UNECE Common Code ({@code unitId}, its characters packed into
 * an integer, under namespace {@code http://www.opcfoundation.org/UA/units/un/cefact}); the codes
 * of the table below map to their UCUM code ({@code CEL} to {@code Cel}, {@code BAR} to {@code bar}).
 * A unit not in the table (or with another namespace) is its display name as the server gives it
 * (such as {@code °C}), so that no unit is lost.
 */
final class OpcuaUnits {

    /** The namespace of UNECE Common Codes in an EUInformation. */
    static final String UNECE = "http://www.opcfoundation.org/UA/units/un/cefact";

    /** UNECE Common Code to UCUM code, for the units sensors commonly give. */
    private static final Map<String, String> UCUM = Map.ofEntries(
            Map.entry("CEL", "Cel"), Map.entry("FAH", "[degF]"), Map.entry("KEL", "K"),
            Map.entry("P1", "%"), Map.entry("VLT", "V"), Map.entry("2Z", "mV"), Map.entry("KVT", "kV"),
            Map.entry("AMP", "A"), Map.entry("4K", "mA"), Map.entry("WTT", "W"), Map.entry("KWT", "kW"),
            Map.entry("KWH", "kW.h"), Map.entry("WHR", "W.h"), Map.entry("HTZ", "Hz"), Map.entry("OHM", "Ohm"),
            Map.entry("BAR", "bar"), Map.entry("MBR", "mbar"), Map.entry("PAL", "Pa"), Map.entry("KPA", "kPa"),
            Map.entry("A97", "hPa"), Map.entry("MTR", "m"), Map.entry("CMT", "cm"), Map.entry("MMT", "mm"),
            Map.entry("SEC", "s"), Map.entry("C26", "ms"), Map.entry("MIN", "min"), Map.entry("HUR", "h"),
            Map.entry("MTS", "m/s"), Map.entry("KMH", "km/h"), Map.entry("LTR", "L"), Map.entry("MTQ", "m3"),
            Map.entry("KGM", "kg"), Map.entry("GRM", "g"), Map.entry("NEW", "N"), Map.entry("NU", "N.m"),
            Map.entry("LUX", "lx"), Map.entry("2N", "dB"), Map.entry("DD", "deg"), Map.entry("M1", "mg/L"),
            Map.entry("59", "ppm"), Map.entry("MQH", "m3/h"), Map.entry("L2", "L/min"));

    private OpcuaUnits() {
    }

    /** The UCUM code of {@code eu}, else its display name; empty when it says nothing. */
    static String of(EUInformation eu) {
        if (eu == null) {
            return "";
        }
        String code = code(eu.getUnitId());
        if (code != null && (eu.getNamespaceUri() == null || UNECE.equals(eu.getNamespaceUri()))
                && UCUM.containsKey(code)) {
            return UCUM.get(code);
        }
        String shown = eu.getDisplayName() == null ? null : eu.getDisplayName().text();
        return shown == null ? "" : shown.strip();
    }

    /** The UNECE Common Code packed in {@code unitId} (one character per byte), or null. */
    static String code(Integer unitId) {
        if (unitId == null || unitId <= 0) {
            return null;
        }
        StringBuilder b = new StringBuilder(4);
        for (int shift = 24; shift >= 0; shift -= 8) {
            int ch = (unitId >>> shift) & 0xFF;
            if (ch == 0 && b.isEmpty()) {
                continue;
            }
            if (ch < '0' || ch > 'Z' || (ch > '9' && ch < 'A')) {
                return null;
            }
            b.append((char) ch);
        }
        return b.toString();
    }
}
