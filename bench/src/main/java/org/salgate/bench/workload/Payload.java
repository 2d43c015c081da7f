package org.salgate.bench.workload;

import java.util.Objects;

import org.salgate.model.Call;
import org.salgate.model.Reading;
import org.salgate.model.Result;
import org.salgate.model.Value;

/**
 * A synchronous call of a workload and how its answer is checked.
 *
 * @param name the data type as the report names it, such as {@code Integer} or {@code 1024 B}
 * @param call what is sent
 * @param rawBytes its size for the framework-free socket ceiling, which sends bytes only
 */
public record Payload(String name, Call call, int rawBytes) {

    /** The paper's String: 3408 B, the size of a typical SensorML document. */
    public static final int STRING_BYTES = 3408;

    public Payload {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(call, "call");
    }

    /** Integer (4 B in the paper): an integral value. */
    public static Payload integer() {
        return new Payload("Integer", new Call.Echo(new Value.Int(123_456_789)), 4);
    }

    /** Object: one sensor-reading record. */
    public static Payload object() {
        Reading r = Reading.ok("DUMMY_0", 1_700_000_000_000_000L, 42, new Value.Num(21.5));
        return new Payload("Object", new Call.EchoReading(r), 64);
    }

    /** String of 3408 characters (ASCII, so 3408 B). */
    public static Payload string() {
        StringBuilder s = new StringBuilder(STRING_BYTES);
        String unit = "<swe:Quantity definition=\"urn:ogc:def:property:temperature\"/>\n";
        while (s.length() < STRING_BYTES) {
            s.append(unit);
        }
        s.setLength(STRING_BYTES);
        return new Payload("String", new Call.Echo(new Value.Text(s.toString())), STRING_BYTES);
    }

    /** Byte[] of the given size. */
    public static Payload bytes(int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (i * 31);
        }
        return new Payload(size + " B", new Call.Echo(new Value.Bytes(b)), size);
    }

    /** The agent's sensor list (agent level, synchronous). */
    public static Payload sensorList() {
        return new Payload("sensor list", new Call.ListSensors(false), 0);
    }

    /** Whether the answer is the expected one; echoes must come back the same size. */
    public boolean accepts(Result result) {
        if (call instanceof Call.Echo e) {
            return result instanceof Result.Echoed r && sameShape(e.payload(), r.payload());
        } else if (call instanceof Call.EchoReading) {
            return result instanceof Result.ReadingResult;
        } else if (call instanceof Call.ListSensors) {
            return result instanceof Result.Sensors s && !s.sensors().isEmpty();
        }
        return !(result instanceof Result.Failure);
    }

    private static boolean sameShape(Value sent, Value back) {
        if (sent instanceof Value.Bytes a && back instanceof Value.Bytes b) {
            return a.value().length == b.value().length;
        } else if (sent instanceof Value.Text a && back instanceof Value.Text b) {
            return a.value().length() == b.value().length();
        }
        return sent.equals(back);
    }

}
