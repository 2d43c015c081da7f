package org.salgate.transport.http.rest;

import org.salgate.transport.http.Replies;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Base64;
import org.salgate.model.Event;
import org.salgate.model.Reading;
import org.salgate.model.Value;

/**
 * The JSON forms of the agent's answers, as the OpenAPI document describes them: the model's records
 * as Jackson writes them (their components by name, enums by name), but a reading's value.
 */
final class JsonViews {

    private JsonViews() {}

    /** A reading: its value as JSON can hold it, bytes in base64, and its device time and error when it has them. */
    static ObjectNode reading(Reading r) {
        ObjectNode node = Replies.JSON.createObjectNode();
        node.put("sensor", r.sensorId());
        node.put("sequence", r.sequence());
        node.put("timestampMicros", r.timestampMicros());
        node.put("status", r.status().name());
        Value v = r.value();
        if (v instanceof Value.Num n && Double.isFinite(n.value())) {
            node.put("value", n.value());
        } else if (v instanceof Value.Int i) {
            node.put("value", i.value());
        } else if (v instanceof Value.Text t) {
            node.put("value", t.value());
        } else if (v instanceof Value.Bytes b) {
            node.put("value", Base64.getEncoder().encodeToString(b.value()));
            node.put("encoding", "base64");
        } else {
            node.putNull("value"); // none, or a number JSON cannot hold
        }
        node.put("unit", r.unit());
        if (r.deviceTimeMicros() != 0) {
            node.put("deviceTimeMicros", r.deviceTimeMicros());
        }
        if (!r.error().isEmpty()) {
            node.put("error", r.error());
        }
        return node;
    }

    /** An agent's event, without a state when it concerns none. */
    static ObjectNode event(Event e) {
        ObjectNode node = Replies.JSON.valueToTree(e);
        if (e.state() == null) {
            node.remove("state");
        }
        return node;
    }
}
