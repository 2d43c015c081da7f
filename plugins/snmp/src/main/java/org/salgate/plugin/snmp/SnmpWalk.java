package org.salgate.plugin.snmp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.salgate.sensorml.ChannelConfig;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.SMIConstants;
import org.snmp4j.smi.TimeTicks;
import org.snmp4j.smi.Variable;

/**
 * A table the protocol walks to find its channels, as Telegraf's {@code [[inputs.snmp.table]]} with
 * its fields: parameter {@code walk} names the table's entry ({@code ifTable}, {@code ifXTable}, or
 * a numeric entry OID such as {@code 1.3.6.1.2.1.2.2.1}), {@code walk-columns} the columns each row
 * gives a channel for ({@code ifInOctets, ifOutOctets}; a column's number under the entry,
 * {@code 10}; a numeric OID; each optionally labelled, {@code in=10}), {@code walk-name} the column
 * whose value names each row ({@code ifDescr}; the row's index when not given), and
 * {@code walk-max-rows} the most rows taken (500 by default).
 *
 * @param entry the table's entry OID, under which a column number is taken
 * @param columns the columns wanted, each a channel per row
 * @param name the column naming each row, or null to name rows by their index
 * @param maxRows the most rows taken from the table
 */
record SnmpWalk(OID entry, List<Column> columns, Column name, int maxRows) {

    /** The parameters of a walk, all but {@code walk} meaningless without it. */
    static final List<String> PARAMETERS = List.of("walk", "walk-columns", "walk-name", "walk-max-rows");

    /**
     * A column of the walked table.
     *
     * @param label the column's part of the channel names ({@code <row>-<label>})
     * @param oid the column's OID (the instances are this OID and the row's index)
     * @param mibName the column's IF-MIB name, or its dotted OID when it has none here
     * @param unit the UCUM unit of its values, or empty when not known
     */
    record Column(String label, OID oid, String mibName, String unit) {}

    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,31}");
    private static final Pattern NUMERIC = Pattern.compile("\\.?[0-9]+(\\.[0-9]+)*");
    private static final Pattern ILLEGAL = Pattern.compile("[^A-Za-z0-9_-]+");
    private static final int MAX_NAME = 64;
    private static final OID IF_ENTRY = new OID("1.3.6.1.2.1.2.2.1");
    private static final OID IF_X_ENTRY = new OID("1.3.6.1.2.1.31.1.1.1");
    /** The tables {@code walk} knows by name: both IF-MIB interface tables, indexed alike by ifIndex. */
    private static final Map<String, OID> TABLES = Map.of("ifTable", IF_ENTRY, "ifXTable", IF_X_ENTRY);
    /** The IF-MIB columns known by name, with the unit of their values. */
    private static final Map<String, Column> IF_MIB = new LinkedHashMap<>();

    static {
        String[][] ifEntry = {{"ifIndex", ""}, {"ifDescr", ""}, {"ifType", ""}, {"ifMtu", "By"},
                {"ifSpeed", "bit/s"}, {"ifPhysAddress", ""}, {"ifAdminStatus", ""}, {"ifOperStatus", ""},
                {"ifLastChange", ""}, {"ifInOctets", "By"}, {"ifInUcastPkts", ""}, {"ifInNUcastPkts", ""},
                {"ifInDiscards", ""}, {"ifInErrors", ""}, {"ifInUnknownProtos", ""}, {"ifOutOctets", "By"},
                {"ifOutUcastPkts", ""}, {"ifOutNUcastPkts", ""}, {"ifOutDiscards", ""}, {"ifOutErrors", ""},
                {"ifOutQLen", ""}};
        String[][] ifXEntry = {{"ifName", ""}, {"ifInMulticastPkts", ""}, {"ifInBroadcastPkts", ""},
                {"ifOutMulticastPkts", ""}, {"ifOutBroadcastPkts", ""}, {"ifHCInOctets", "By"},
                {"ifHCInUcastPkts", ""}, {"ifHCInMulticastPkts", ""}, {"ifHCInBroadcastPkts", ""},
                {"ifHCOutOctets", "By"}, {"ifHCOutUcastPkts", ""}, {"ifHCOutMulticastPkts", ""},
                {"ifHCOutBroadcastPkts", ""}, {"ifLinkUpDownTrapEnable", ""}, {"ifHighSpeed", "Mbit/s"},
                {"ifPromiscuousMode", ""}, {"ifConnectorPresent", ""}, {"ifAlias", ""},
                {"ifCounterDiscontinuityTime", ""}};
        known(IF_ENTRY, ifEntry);
        known(IF_X_ENTRY, ifXEntry);
    }

    private static void known(OID entry, String[][] columns) {
        for (int i = 0; i < columns.length; i++) {
            String name = columns[i][0];
            IF_MIB.put(name, new Column(name, new OID(entry).append(i + 1), name, columns[i][1]));
        }
    }

    /**
     * The walk the parameters ask for, or null when they name none.
     *
     * @throws IllegalArgumentException naming the parameter that is wrong and what it should be
     */
    static SnmpWalk of(String where, Map<String, String> p, int maxRows) {
        String table = p.get("walk");
        if (table == null) {
            for (String other : PARAMETERS) {
                if (p.containsKey(other)) {
                    throw new IllegalArgumentException(where + "parameter " + other + " goes with parameter walk,"
                            + " the table to walk (ifTable, ifXTable or a numeric entry OID such as 1.3.6.1.2.1.2.2.1)");
                }
            }
            return null;
        }
        OID entry = TABLES.get(table.strip());
        if (entry == null) {
            if (!NUMERIC.matcher(table.strip()).matches()) {
                throw new IllegalArgumentException(where + "parameter walk '" + table + "' is neither a table this"
                        + " plugin knows by name (" + String.join(", ", TABLES.keySet()) + ") nor a numeric"
                        + " entry OID such as 1.3.6.1.2.1.2.2.1 (snmptranslate -On IF-MIB::ifEntry gives it)");
            }
            entry = oid(where, "walk", table);
        }
        String wanted = p.get("walk-columns");
        if (wanted == null || wanted.isBlank()) {
            throw new IllegalArgumentException(where + "parameter walk needs walk-columns, the columns that become"
                    + " channels, such as ifInOctets, ifOutOctets (or column numbers under the entry: 10, 16;"
                    + " a label first names them: in=10, out=16)");
        }
        List<Column> columns = new ArrayList<>();
        Set<String> labels = new HashSet<>();
        for (String part : wanted.split(",")) {
            String item = part.strip();
            int eq = item.indexOf('=');
            String label = eq < 0 ? null : item.substring(0, eq).strip();
            Column c = column(where, "walk-columns", entry, eq < 0 ? item : item.substring(eq + 1).strip());
            if (label != null) {
                if (!LABEL.matcher(label).matches()) {
                    throw new IllegalArgumentException(where + "parameter walk-columns: label '" + label + "' must be"
                            + " 1 to 32 letters, digits, '_' or '-', starting with a letter or digit");
                }
                c = new Column(label, c.oid(), c.mibName(), c.unit());
            }
            if (!labels.add(c.label())) {
                throw new IllegalArgumentException(where + "parameter walk-columns names '" + c.label() + "' twice;"
                        + " give each column once, or a label of its own (in=10)");
            }
            columns.add(c);
        }
        String name = p.get("walk-name");
        return new SnmpWalk(entry, List.copyOf(columns), name == null ? null : column(where, "walk-name", entry,
                name.strip()), maxRows);
    }

    /** A column given by IF-MIB name, by its number under {@code entry}, or by its numeric OID. */
    private static Column column(String where, String parameter, OID entry, String text) {
        Column known = IF_MIB.get(text);
        if (known != null) {
            return known;
        }
        if (text.matches("[0-9]+")) {
            OID oid = oid(where, parameter, entry.toDottedString() + "." + text);
            return new Column(text, oid, oid.toDottedString(), "");
        }
        if (NUMERIC.matcher(text).matches()) {
            OID oid = oid(where, parameter, text);
            return new Column(oid.toDottedString().replace('.', '_'), oid, oid.toDottedString(), "");
        }
        throw new IllegalArgumentException(where + "parameter " + parameter + ": '" + text + "' is not a column"
                + " of IF-MIB's ifTable or ifXTable, nor a column number under parameter walk (such as 10), nor a"
                + " numeric OID; names known: " + String.join(", ", IF_MIB.keySet()));
    }

    private static OID oid(String where, String parameter, String text) {
        return SnmpChannel.numeric(where + "parameter " + parameter, text);
    }

    /** The OIDs to walk: the wanted columns, and the naming column when it is not one of them. */
    OID[] walked() {
        List<OID> oids = new ArrayList<>();
        columns.forEach(c -> oids.add(c.oid()));
        if (name != null && !oids.contains(name.oid())) {
            oids.add(name.oid());
        }
        return oids.toArray(OID[]::new);
    }

    /**
     * The channels of the rows walked: one per row and wanted column the device has a value for,
     * named {@code <row>-<label>} where the row is named by the naming column's value made legal
     * (other characters as {@code _}, cut to fit 64), or by its index ({@code 1}, {@code 1_4} for
     * {@code 1.4}); two rows of the same name each get their index appended. Each channel reads the
     * column's OID at the row's index (attributes {@code oid} and {@code index}, as a configured
     * channel); its description says the column, the row and the value's SNMP type (Counter32...),
     * and a TimeTicks column reads in seconds.
     */
    List<ChannelConfig> channels(List<Row> rows) {
        Map<String, Integer> seen = new HashMap<>();
        List<String> rowNames = new ArrayList<>(rows.size());
        for (Row r : rows) {
            String n = rowName(r);
            rowNames.add(n);
            seen.merge(n, 1, Integer::sum);
        }
        List<ChannelConfig> out = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            String rowName = rowNames.get(i);
            String index = r.index().toDottedString();
            String unique = seen.get(rowName) > 1 ? rowName + "_" + index.replace('.', '_') : rowName;
            for (Column c : columns) {
                Variable v = r.values().get(c.oid());
                if (v == null || v.isException()) {
                    continue;
                }
                String channel = fit(unique, c.label());
                if (!taken.add(channel)) {
                    continue;
                }
                boolean ticks = v instanceof TimeTicks;
                String text = rowText(r);
                String row = text.isEmpty() ? "row " + index : "'" + text + "' (row " + index + ")";
                String what = c.mibName() + " of " + row + ", " + type(v) + (ticks ? " in seconds" : "") + ", found by walking "
                        + entry.toDottedString();
                out.add(new ChannelConfig(channel, what, ticks ? "s" : c.unit(), ticks ? 0.01 : 1, 0,
                        ChannelConfig.Access.READ, null, null,
                        Map.of("oid", c.oid().toDottedString(), "index", index)));
            }
        }
        return out;
    }

    /** The value's SNMPv2 type, as MIBs write it (snmp4j says Counter and Gauge for Counter32 and Gauge32). */
    private static String type(Variable v) {
        return switch (v.getSyntax()) {
            case SMIConstants.SYNTAX_COUNTER32 -> "Counter32";
            case SMIConstants.SYNTAX_GAUGE32 -> "Gauge32";
            default -> v.getSyntaxString();
        };
    }

    /** The naming column's value in the row, as text; empty when there is none. */
    private String rowText(Row r) {
        Variable v = name == null ? null : r.values().get(name.oid());
        return v == null || v.isException() ? "" : v instanceof OctetString s && s.isPrintable()
                ? s.toString().strip() : v.toString();
    }

    /** The row's name: the naming column's text made legal, or its index when there is none. */
    private String rowName(Row r) {
        String legal = ILLEGAL.matcher(rowText(r)).replaceAll("_").replaceAll("^[_-]+", "");
        return legal.isEmpty() ? r.index().toDottedString().replace('.', '_') : legal;
    }

    /** {@code <row>-<label>}, the row's part cut so that the whole fits a channel name. */
    private static String fit(String row, String label) {
        int room = MAX_NAME - 1 - label.length();
        return (row.length() > room ? row.substring(0, room) : row) + "-" + label;
    }

    /**
     * A row of the walked table.
     *
     * @param index the row's index (the instance OID's part after the column)
     * @param values the row's values by column OID
     */
    record Row(OID index, Map<OID, Variable> values) {}
}
