package org.salgate.transport.http.rest;

import org.salgate.transport.http.Exchange;
import org.salgate.transport.http.HttpTransportProvider;
import org.salgate.transport.http.Replies;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Base64;
import java.util.List;
import org.salgate.model.Event;
import org.salgate.model.ProtocolInfo;
import org.salgate.model.Reading;
import org.salgate.model.SensorInfo;
import org.salgate.model.Value;

/** The JSON forms of the agent's answers, as the OpenAPI document describes them. */
final class JsonViews {

    private JsonViews() {}

    static ObjectNode sensor(SensorInfo s) {
        ObjectNode node = Replies.JSON.createObjectNode();
        node.put("id", s.id());
        node.put("protocol", s.protocol());
        node.put("state", s.state().name());
        node.put("description", s.description());
        return node;
    }

    static ArrayNode sensors(List<SensorInfo> sensors) {
        ArrayNode array = Replies.JSON.createArrayNode();
        sensors.forEach(s -> array.add(sensor(s)));
        return array;
    }

    static ArrayNode protocols(List<ProtocolInfo> protocols) {
        ArrayNode array = Replies.JSON.createArrayNode();
        for (ProtocolInfo p : protocols) {
            ObjectNode node = array.addObject();
            node.put("name", p.name());
            node.put("type", p.type());
            node.put("endpoint", p.endpoint());
            node.put("sensorCount", p.sensorCount());
        }
        return array;
    }

    static ObjectNode reading(Reading r) {
        ObjectNode node = Replies.JSON.createObjectNode();
        node.put("sensor", r.sensorId());
        node.put("sequence", r.sequence());
        node.put("timestampMicros", r.timestampMicros());
        node.put("status", r.status().name());
        Value v = r.value();
        if (v instanceof Value.Num n) {
            if (Double.isFinite(n.value())) {
                node.put("value", n.value());
            } else {
                node.putNull("value");
            }
        } else if (v instanceof Value.Int i) {
            node.put("value", i.value());
        } else if (v instanceof Value.Text t) {
            node.put("value", t.value());
        } else if (v instanceof Value.Bytes b) {
            node.put("value", Base64.getEncoder().encodeToString(b.value()));
            node.put("encoding", "base64");
        } else {
            node.putNull("value");
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

    static ObjectNode event(Event e) {
        ObjectNode node = Replies.JSON.createObjectNode();
        node.put("type", e.type().name());
        node.put("subject", e.subject());
        if (e.state() != null) {
            node.put("state", e.state().name());
        }
        node.put("timestampMicros", e.timestampMicros());
        node.put("detail", e.detail());
        return node;
    }
}
