package org.salgate.codec.tree;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.salgate.model.Call;
import org.salgate.wire.CodecException;
import org.salgate.model.ErrorCode;
import org.salgate.model.Event;
import org.salgate.wire.EventNotice;
import org.salgate.wire.Hello;
import org.salgate.wire.HelloReply;
import org.salgate.wire.Message;
import org.salgate.model.ProtocolInfo;
import org.salgate.model.Reading;
import org.salgate.wire.Request;
import org.salgate.wire.Response;
import org.salgate.model.Result;
import org.salgate.model.SensorInfo;
import org.salgate.model.SensorState;
import org.salgate.wire.StreamData;
import org.salgate.model.SlowConsumerPolicy;
import org.salgate.model.StreamCounts;
import org.salgate.wire.StreamEnded;
import org.salgate.model.Value;

/**
 * Maps the wire model to a Jackson tree and back, so that every Jackson format (JSON, MessagePack,
 * XML) shares one document layout and the spi needs no annotations. Every object carries a
 * discriminator; lists are written as {@code {"n": count, "e": [...]}} so that formats that cannot
 * tell one element from a list (XML) still read back exactly.
 */
public final class MessageTree {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private MessageTree() {}

    // ------------------------------------------------------------------ writing

    /** The tree of a message. */
    public static ObjectNode write(Message message) {
        ObjectNode o = F.objectNode();
        if (message instanceof Hello h) {
            o.put("t", "hello").put("version", h.protocolVersion()).put("codec", h.codec())
                    .put("client", h.clientName()).put("credentials", h.credentials());
        } else if (message instanceof HelloReply r) {
            o.put("t", "helloReply").put("accepted", r.accepted()).put("version", r.protocolVersion())
                    .put("agent", r.agentId()).put("error", r.error());
            if (r.code() != null) {
                o.put("code", r.code().name());
            }
            if (!r.role().isEmpty()) {
                o.put("role", r.role());
            }
        } else if (message instanceof Request r) {
            o.put("t", "request").put("id", r.id()).set("call", call(r.call()));
        } else if (message instanceof Response r) {
            o.put("t", "response").put("id", r.id()).set("result", result(r.result()));
        } else if (message instanceof StreamData d) {
            o.put("t", "data").put("stream", d.streamId()).set("reading", reading(d.reading()));
        } else if (message instanceof StreamEnded e) {
            o.put("t", "ended").put("stream", e.streamId()).put("reason", e.reason()).set("counts", counts(e.counts()));
        } else if (message instanceof EventNotice n) {
            o.put("t", "event").put("missedBefore", n.missedBefore()).set("event", event(n.event()));
        } else {
            throw new IllegalArgumentException("unknown message kind " + message.getClass().getName());
        }
        return o;
    }

    private static ObjectNode call(Call call) {
        ObjectNode o = F.objectNode();
        if (call instanceof Call.ListSensors c) {
            o.put("op", "listSensors").put("activeOnly", c.activeOnly());
        } else if (call instanceof Call.DescribeSensor c) {
            o.put("op", "describeSensor").put("sensor", c.sensorId());
        } else if (call instanceof Call.AddSensor c) {
            o.put("op", "addSensor").put("sensorMl", c.sensorMl());
        } else if (call instanceof Call.RemoveSensor c) {
            o.put("op", "removeSensor").put("sensor", c.sensorId());
        } else if (call instanceof Call.ListCommands c) {
            o.put("op", "listCommands").put("sensor", c.sensorId());
        } else if (call instanceof Call.Execute c) {
            o.put("op", "execute").put("sensor", c.sensorId()).put("command", c.commandId())
                    .set("args", arguments(c.arguments()));
        } else if (call instanceof Call.SetupStream c) {
            o.put("op", "setupStream").put("sensor", c.sensorId()).put("command", c.commandId())
                    .put("intervalMs", c.intervalMs()).set("args", arguments(c.arguments()));
            if (c.policy() != null) {
                o.put("policy", c.policy().wireName());
            }
            if (c.shared()) {
                o.put("shared", true);
            }
        } else if (call instanceof Call.StartStream c) {
            o.put("op", "startStream").put("stream", c.streamId());
        } else if (call instanceof Call.StopStream c) {
            o.put("op", "stopStream").put("stream", c.streamId());
        } else if (call instanceof Call.ListProtocols) {
            o.put("op", "listProtocols");
        } else if (call instanceof Call.AddProtocol c) {
            o.put("op", "addProtocol").put("pcml", c.pcml());
        } else if (call instanceof Call.RemoveProtocol c) {
            o.put("op", "removeProtocol").put("name", c.name());
        } else if (call instanceof Call.GetPlatformConfig) {
            o.put("op", "getPlatformConfig");
        } else if (call instanceof Call.SubscribeEvents) {
            o.put("op", "subscribeEvents");
        } else if (call instanceof Call.UnsubscribeEvents) {
            o.put("op", "unsubscribeEvents");
        } else if (call instanceof Call.Echo c) {
            o.put("op", "echo").set("payload", value(c.payload()));
        } else if (call instanceof Call.EchoReading c) {
            o.put("op", "echoReading").set("reading", reading(c.reading()));
        } else {
            throw new IllegalArgumentException("unknown call " + call.getClass().getName());
        }
        return o;
    }

    private static ObjectNode result(Result result) {
        ObjectNode o = F.objectNode();
        if (result instanceof Result.Ack) {
            o.put("kind", "ack");
        } else if (result instanceof Result.Sensors r) {
            o.put("kind", "sensors").set("sensors", list(r.sensors(), MessageTree::sensor));
        } else if (result instanceof Result.Sensor r) {
            o.put("kind", "sensor").set("sensor", sensor(r.sensor()));
        } else if (result instanceof Result.Document r) {
            o.put("kind", "document").put("xml", r.xml());
        } else if (result instanceof Result.ReadingResult r) {
            o.put("kind", "reading").set("reading", reading(r.reading()));
        } else if (result instanceof Result.StreamHandle r) {
            o.put("kind", "streamHandle").put("stream", r.streamId()).put("policy", r.policy().wireName());
        } else if (result instanceof Result.StreamStopped r) {
            o.put("kind", "streamStopped").set("counts", counts(r.counts()));
        } else if (result instanceof Result.Protocols r) {
            o.put("kind", "protocols").set("protocols", list(r.protocols(), MessageTree::protocol));
        } else if (result instanceof Result.Echoed r) {
            o.put("kind", "echoed").set("payload", value(r.payload()));
        } else if (result instanceof Result.Failure r) {
            o.put("kind", "failure").put("code", r.code().name()).put("message", r.message());
        } else {
            throw new IllegalArgumentException("unknown result " + result.getClass().getName());
        }
        return o;
    }

    private static ObjectNode sensor(SensorInfo s) {
        return F.objectNode().put("id", s.id()).put("protocol", s.protocol()).put("state", s.state().name())
                .put("description", s.description());
    }

    private static ObjectNode protocol(ProtocolInfo p) {
        return F.objectNode().put("name", p.name()).put("type", p.type()).put("endpoint", p.endpoint())
                .put("sensors", p.sensorCount());
    }

    private static ObjectNode reading(Reading r) {
        ObjectNode o = F.objectNode().put("sensor", r.sensorId()).put("ts", r.timestampMicros())
                .put("seq", r.sequence()).put("status", r.status().name()).put("error", r.error());
        o.set("value", value(r.value()));
        return o;
    }

    private static ObjectNode value(Value v) {
        ObjectNode o = F.objectNode();
        if (v instanceof Value.Num n) {
            o.put("kind", "num").put("v", n.value());
        } else if (v instanceof Value.Int i) {
            o.put("kind", "int").put("v", i.value());
        } else if (v instanceof Value.Text t) {
            o.put("kind", "text").put("v", t.value());
        } else if (v instanceof Value.Bytes b) {
            o.put("kind", "bytes").put("v", b.value());
        } else {
            o.put("kind", "absent");
        }
        return o;
    }

    private static ObjectNode event(Event e) {
        ObjectNode o = F.objectNode().put("type", e.type().name()).put("subject", e.subject())
                .put("ts", e.timestampMicros()).put("detail", e.detail());
        if (e.state() != null) {
            o.put("state", e.state().name());
        }
        return o;
    }

    private static ObjectNode counts(StreamCounts c) {
        return F.objectNode().put("delivered", c.delivered()).put("skipped", c.skipped()).put("dropped", c.dropped());
    }

    private static ObjectNode arguments(Map<String, String> args) {
        // sorted, so that one call always gives the same bytes
        return list(List.copyOf(new TreeMap<>(args).entrySet()),
                e -> F.objectNode().put("k", e.getKey()).put("v", e.getValue()));
    }

    private static <T> ObjectNode list(List<T> items, Function<T, ObjectNode> write) {
        ArrayNode array = F.arrayNode();
        items.forEach(i -> array.add(write.apply(i)));
        ObjectNode o = F.objectNode().put("n", items.size());
        o.set("e", array);
        return o;
    }

    // ------------------------------------------------------------------ reading

    /**
     * The message of a tree.
     *
     * @throws CodecException if the tree is not a message: unknown kind, missing or malformed field
     */
    public static Message read(JsonNode tree) throws CodecException {
        try {
            Node n = new Node(tree, "message");
            String t = n.text("t");
            return switch (t) {
                case "hello" -> new Hello(n.integer("version"), n.text("codec"), n.text("client"),
                        n.text("credentials"));
                case "helloReply" -> new HelloReply(n.bool("accepted"), n.integer("version"), n.text("agent"),
                        n.text("error"), n.has("code") ? n.enumValue("code", ErrorCode.class) : null,
                        n.has("role") ? n.text("role") : "");
                case "request" -> new Request(n.number("id"), call(n.object("call")));
                case "response" -> new Response(n.number("id"), result(n.object("result")));
                case "data" -> new StreamData(n.number("stream"), reading(n.object("reading")));
                case "ended" -> new StreamEnded(n.number("stream"), n.text("reason"), counts(n.object("counts")));
                case "event" -> new EventNotice(event(n.object("event")), n.number("missedBefore"));
                default -> throw new CodecException("unknown message type '" + t + "'");
            };
        } catch (RuntimeException e) {
            // the model's checking constructors refuse what the layout let through
            throw new CodecException("the message is malformed: " + e.getMessage(), e);
        }
    }

    private static Call call(Node n) throws CodecException {
        String op = n.text("op");
        return switch (op) {
            case "listSensors" -> new Call.ListSensors(n.bool("activeOnly"));
            case "describeSensor" -> new Call.DescribeSensor(n.text("sensor"));
            case "addSensor" -> new Call.AddSensor(n.text("sensorMl"));
            case "removeSensor" -> new Call.RemoveSensor(n.text("sensor"));
            case "listCommands" -> new Call.ListCommands(n.text("sensor"));
            case "execute" -> new Call.Execute(n.text("sensor"), n.text("command"), arguments(n.object("args")));
            case "setupStream" -> new Call.SetupStream(n.text("sensor"), n.text("command"),
                    arguments(n.object("args")), n.number("intervalMs"),
                    n.has("policy") ? policy(n.text("policy")) : null, n.has("shared") && n.bool("shared"));
            case "startStream" -> new Call.StartStream(n.number("stream"));
            case "stopStream" -> new Call.StopStream(n.number("stream"));
            case "listProtocols" -> new Call.ListProtocols();
            case "addProtocol" -> new Call.AddProtocol(n.text("pcml"));
            case "removeProtocol" -> new Call.RemoveProtocol(n.text("name"));
            case "getPlatformConfig" -> new Call.GetPlatformConfig();
            case "subscribeEvents" -> new Call.SubscribeEvents();
            case "unsubscribeEvents" -> new Call.UnsubscribeEvents();
            case "echo" -> new Call.Echo(value(n.object("payload")));
            case "echoReading" -> new Call.EchoReading(reading(n.object("reading")));
            default -> throw new CodecException("unknown call '" + op + "'");
        };
    }

    private static Result result(Node n) throws CodecException {
        String kind = n.text("kind");
        return switch (kind) {
            case "ack" -> new Result.Ack();
            case "sensors" -> new Result.Sensors(list(n.object("sensors"), MessageTree::sensor));
            case "sensor" -> new Result.Sensor(sensor(n.object("sensor")));
            case "document" -> new Result.Document(n.text("xml"));
            case "reading" -> new Result.ReadingResult(reading(n.object("reading")));
            case "streamHandle" -> new Result.StreamHandle(n.number("stream"), policy(n.text("policy")));
            case "streamStopped" -> new Result.StreamStopped(counts(n.object("counts")));
            case "protocols" -> new Result.Protocols(list(n.object("protocols"), MessageTree::protocol));
            case "echoed" -> new Result.Echoed(value(n.object("payload")));
            case "failure" -> new Result.Failure(n.enumValue("code", ErrorCode.class), n.text("message"));
            default -> throw new CodecException("unknown result '" + kind + "'");
        };
    }

    private static SensorInfo sensor(Node n) throws CodecException {
        return new SensorInfo(n.text("id"), n.text("protocol"), n.enumValue("state", SensorState.class),
                n.text("description"));
    }

    private static ProtocolInfo protocol(Node n) throws CodecException {
        return new ProtocolInfo(n.text("name"), n.text("type"), n.text("endpoint"), n.integer("sensors"));
    }

    private static Reading reading(Node n) throws CodecException {
        return new Reading(n.text("sensor"), n.number("ts"), n.number("seq"), value(n.object("value")),
                n.enumValue("status", Reading.Status.class), n.text("error"));
    }

    private static Value value(Node n) throws CodecException {
        String kind = n.text("kind");
        return switch (kind) {
            case "num" -> Value.of(n.real("v"));
            case "int" -> Value.of(n.number("v"));
            case "text" -> Value.of(n.text("v"));
            case "bytes" -> Value.of(n.bytes("v"));
            case "absent" -> Value.absent();
            default -> throw new CodecException("unknown value kind '" + kind + "'");
        };
    }

    private static Event event(Node n) throws CodecException {
        SensorState state = n.has("state") ? n.enumValue("state", SensorState.class) : null;
        return new Event(n.enumValue("type", Event.Type.class), n.text("subject"), state, n.number("ts"),
                n.text("detail"));
    }

    private static StreamCounts counts(Node n) throws CodecException {
        return new StreamCounts(n.number("delivered"), n.number("skipped"), n.number("dropped"));
    }

    private static SlowConsumerPolicy policy(String name) throws CodecException {
        try {
            return SlowConsumerPolicy.parse(name);
        } catch (IllegalArgumentException e) {
            throw new CodecException(e.getMessage());
        }
    }

    private static Map<String, String> arguments(Node n) throws CodecException {
        Map<String, String> args = new LinkedHashMap<>();
        for (Node e : n.elements()) {
            if (args.put(e.text("k"), e.text("v")) != null) {
                throw new CodecException("argument '" + e.text("k") + "' is given twice");
            }
        }
        return args;
    }

    private interface NodeReader<T> {
        T read(Node node) throws CodecException;
    }

    private static <T> List<T> list(Node n, NodeReader<T> read) throws CodecException {
        List<T> out = new ArrayList<>();
        for (Node e : n.elements()) {
            out.add(read.read(e));
        }
        return out;
    }
}
