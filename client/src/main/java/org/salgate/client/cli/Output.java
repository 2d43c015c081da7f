package org.salgate.client.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;

import org.salgate.model.Event;
import org.salgate.model.Reading;
import org.salgate.model.Value;

/**
 * Prints records (ordered field name to value maps) as JSON or CSV. The JSON keeps the values' types
 * (numbers stay numbers); CSV writes each value as text, an absent one as an empty cell.
 */
final class Output {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper JSON_PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final CsvMapper CSV = new CsvMapper();

    private Output() {}

    /** One JSON document (an array or an object), indented. */
    static void jsonDocument(PrintWriter out, Object value) {
        out.println(write(JSON_PRETTY, value));
    }

    /** One JSON value on one line, for JSON lines. */
    static void jsonLine(PrintWriter out, Object value) {
        out.println(write(JSON, value));
        out.flush();
    }

    /** The CSV header line of these columns. */
    static void csvHeader(PrintWriter out, List<String> columns) {
        csvRow(out, new ArrayList<>(columns));
    }

    /** One CSV line of the record's values, in the columns' order. */
    static void csvRecord(PrintWriter out, List<String> columns, Map<String, ?> record) {
        List<Object> cells = new ArrayList<>(columns.size());
        for (String c : columns) {
            Object v = record.get(c);
            cells.add(v == null ? "" : v.toString());
        }
        csvRow(out, cells);
    }

    /** A header and every record. */
    static void csv(PrintWriter out, List<String> columns, List<? extends Map<String, ?>> records) {
        csvHeader(out, columns);
        for (Map<String, ?> r : records) {
            csvRecord(out, columns, r);
        }
    }

    private static void csvRow(PrintWriter out, List<Object> cells) {
        try {
            out.print(CSV.writer(CsvSchema.emptySchema()).writeValueAsString(cells));
            out.flush();
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String write(ObjectMapper mapper, Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- the records of readings and events, shared by read and stream, and events

    /** The columns of a reading: {@code sequence} only for a stream. */
    static List<String> readingColumns(boolean withSequence) {
        List<String> c = new ArrayList<>(List.of("sensor", "value", "unit", "bytes", "status", "error", "timestamp",
                "deviceTime"));
        if (withSequence) {
            c.add(1, "sequence");
        }
        return c;
    }

    /**
     * A reading: {@code value} a number for numbers, text for text, absent for bytes (whose size is
     * {@code bytes}) and for a reading without a value; {@code unit}, the reading's, only with a
     * numeric value; {@code deviceTime} only when the device stamped the value.
     */
    static Map<String, Object> reading(Reading r, boolean withSequence) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sensor", r.sensorId());
        if (withSequence) {
            m.put("sequence", r.sequence());
        }
        Value v = r.value();
        Object value = null;
        if (v instanceof Value.Num n) {
            value = Double.isFinite(n.value()) ? new BigDecimal(n.toString()) : null;
        } else if (v instanceof Value.Int i) {
            value = i.value();
        } else if (v instanceof Value.Text t) {
            value = t.value();
        }
        m.put("value", value);
        m.put("unit", ReadingFormat.unit(r));
        m.put("bytes", v instanceof Value.Bytes b ? b.value().length : null);
        m.put("status", r.status().name());
        m.put("error", r.error().isEmpty() ? null : r.error());
        m.put("timestamp", ReadingFormat.timestamp(r.timestampMicros()));
        m.put("deviceTime", r.deviceTimeMicros() == 0 ? null : ReadingFormat.timestamp(r.deviceTimeMicros()));
        return m;
    }

    static final List<String> EVENT_COLUMNS = List.of("timestamp", "type", "subject", "state", "detail");

    static Map<String, Object> event(Event e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("timestamp", ReadingFormat.timestamp(e.timestampMicros()));
        m.put("type", e.type().name());
        m.put("subject", e.subject());
        m.put("state", e.state() == null ? null : e.state().name());
        m.put("detail", e.detail().isEmpty() ? null : e.detail());
        return m;
    }
}
