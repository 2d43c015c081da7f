package org.salgate.mqtt;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import org.salgate.model.Event;
import org.salgate.model.Reading;
import org.salgate.model.Value;
import org.salgate.mqtt.report.Report;

/** The JSON published for readings and events. */
final class Payloads {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Payloads() {}

    /**
     * A reading as {@code {"sensor","command","sequence","timestamp","timestampMicros","status","value","unit"}}
     * plus {@code "deviceTime","deviceTimeMicros"} when the device stamped its value and {@code "error"}
     * when its status is not OK; bytes values are base64.
     */
    static byte[] reading(Reading r, String commandId) {
        ObjectNode n = JSON.createObjectNode();
        n.put("sensor", r.sensorId());
        n.put("command", commandId);
        n.put("sequence", r.sequence());
        n.put("timestamp", instant(r.timestampMicros()).toString());
        n.put("timestampMicros", r.timestampMicros());
        n.put("status", r.status().name());
        Value v = r.value();
        if (v instanceof Value.Num num) {
            n.put("value", num.value());
        } else if (v instanceof Value.Int i) {
            n.put("value", i.value());
        } else if (v instanceof Value.Text t) {
            n.put("value", t.value());
        } else if (v instanceof Value.Bytes b) {
            n.put("value", Base64.getEncoder().encodeToString(b.value()));
        } else {
            n.putNull("value");
        }
        n.put("unit", r.unit());
        if (r.deviceTimeMicros() != 0) {
            n.put("deviceTime", instant(r.deviceTimeMicros()).toString());
            n.put("deviceTimeMicros", r.deviceTimeMicros());
        }
        if (r.status() != Reading.Status.OK) {
            n.put("error", r.error());
        }
        return bytes(n);
    }

    /** What a stream's report filter let through: a reading as {@link #reading}, or a window as {@link #window}. */
    static byte[] report(Report r, String commandId) {
        if (r instanceof Report.Sent s) {
            return reading(s.reading(), commandId);
        }
        return window((Report.Window) r, commandId);
    }

    /**
     * A window's aggregate as {@code {"sensor","command","aggregate":"window","windowStart","windowEnd",
     * "windowMillis","timestamp","timestampMicros","status":"OK","value","count","min","max","mean","unit"}};
     * the timestamp is the window's end, and the value its mean, for consumers that read a reading's
     * {@code value} and {@code status} (Home Assistant's template, a dashboard).
     */
    static byte[] window(Report.Window w, String commandId) {
        ObjectNode n = JSON.createObjectNode();
        n.put("sensor", w.sensorId());
        n.put("command", commandId);
        n.put("aggregate", "window");
        n.put("windowStart", instant(w.startMicros()).toString());
        n.put("windowEnd", instant(w.endMicros()).toString());
        n.put("windowMillis", w.length().toMillis());
        n.put("timestamp", instant(w.endMicros()).toString());
        n.put("timestampMicros", w.endMicros());
        n.put("status", Reading.Status.OK.name());
        n.put("value", w.mean());
        n.put("count", w.count());
        n.put("min", w.min());
        n.put("max", w.max());
        n.put("mean", w.mean());
        n.put("unit", w.unit());
        return bytes(n);
    }

    /** An event as {@code {"type","subject","state","timestamp","detail"}}; state only for state changes. */
    static byte[] event(Event e) {
        ObjectNode n = JSON.createObjectNode();
        n.put("type", e.type().name());
        n.put("subject", e.subject());
        if (e.state() != null) {
            n.put("state", e.state().name());
        }
        n.put("timestamp", instant(e.timestampMicros()).toString());
        n.put("detail", e.detail());
        return bytes(n);
    }

    static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }

    private static byte[] bytes(ObjectNode n) {
        try {
            return JSON.writeValueAsBytes(n);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialize", e);
        }
    }
}
