package org.salgate.bench.restgrpc;

/** The SAL operations both APIs are measured on, each the same request to the same agent. */
public enum Operation {
    /** Every sensor: {@code GET /api/sensors} against {@code Sal/ListSensors}. */
    LIST("list", "list the sensors"),
    /** One reading: {@code POST /api/sensors/DUMMY_0/commands/read} against {@code Sal/Execute}. */
    READ("read", "one reading of DUMMY_0 (its read command)"),
    /** A sensor's SensorML 2.0 document: {@code GET /api/sensors/DUMMY_0} (XML) against {@code Sal/DescribeSensor}. */
    DESCRIBE("describe", "the SensorML description of DUMMY_0");

    /** The sensor read and described. */
    public static final String SENSOR = "DUMMY_0";
    /** The command that reads it. */
    public static final String COMMAND = "read";

    private final String id;
    private final String title;

    Operation(String id, String title) {
        this.id = id;
        this.title = title;
    }

    public String id() {
        return id;
    }

    public String title() {
        return title;
    }
}
