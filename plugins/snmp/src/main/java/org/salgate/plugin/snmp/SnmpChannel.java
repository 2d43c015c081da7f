package org.salgate.plugin.snmp;

import org.salgate.sensorml.ChannelConfig;
import org.snmp4j.smi.OID;

/**
 * Where a channel's value comes from: a polled OID (attribute {@code oid}, plus {@code index} for
 * a row of a table column, appended to it), or a variable of the traps and informs the device
 * sends (attribute {@code trap-oid}), pushed to the agent when one arrives.
 *
 * @param name the channel's name
 * @param oid the OID read or looked for in traps
 * @param pushed whether the value comes from traps
 */
record SnmpChannel(String name, OID oid, boolean pushed) {

    /**
     * @throws IllegalArgumentException naming the channel and what is wrong with it
     */
    static SnmpChannel of(ChannelConfig c) {
        String oid = c.attributes().get("oid");
        String trap = c.attributes().get("trap-oid");
        String index = c.attributes().get("index");
        String where = "SNMP channel " + c.name() + ": ";
        for (String a : c.attributes().keySet()) {
            if (!a.equals("oid") && !a.equals("trap-oid") && !a.equals("index")) {
                throw new IllegalArgumentException(where + "unknown attribute '" + a + "'; an SNMP channel has oid"
                        + " (and index, for a table row) or trap-oid");
            }
        }
        if ((oid == null) == (trap == null)) {
            throw new IllegalArgumentException(where + "give exactly one of attribute oid (a value read with GET,"
                    + " such as 1.3.6.1.2.1.1.3.0) or trap-oid (a variable of the traps the device sends)");
        }
        if (c.access().writable()) {
            throw new IllegalArgumentException(where + "SNMP channels are read-only here (no SET); make access read");
        }
        if (trap != null) {
            if (index != null) {
                throw new IllegalArgumentException(where + "attribute index goes with oid, not trap-oid");
            }
            return new SnmpChannel(c.name(), numeric(where + "attribute trap-oid", trap), true);
        }
        OID base = numeric(where + "attribute oid", oid);
        if (index != null) {
            base = new OID(base).append(numeric(where + "attribute index", index));
        }
        return new SnmpChannel(c.name(), base, false);
    }

    /**
     * A numeric OID, dotted ({@code 1.3.6.1.2.1.1.3.0}); a leading dot is allowed.
     *
     * @param what where the text comes from, such as {@code SNMP channel x: attribute oid}
     * @throws IllegalArgumentException naming {@code what} when the text is no such OID
     */
    static OID numeric(String what, String text) {
        String t = text.strip();
        if (t.startsWith(".")) {
            t = t.substring(1);
        }
        if (!t.matches("[0-9]+(\\.[0-9]+)*")) {
            throw new IllegalArgumentException(what + " '" + text + "' is not a numeric"
                    + " OID such as 1.3.6.1.2.1.1.3.0 (MIB names are not resolved: snmptranslate -On NAME gives"
                    + " the number)");
        }
        for (String part : t.split("\\.")) {
            if (part.length() > 10 || Long.parseLong(part) > 0xFFFF_FFFFL) {
                throw new IllegalArgumentException(what + " '" + text + "' has a part"
                        + " beyond 4294967295");
            }
        }
        return new OID(t);
    }
}
