package org.salgate.wire;

import org.salgate.model.Value;
import org.salgate.model.Reading;
import org.salgate.model.Call;
import org.salgate.model.Result;
import org.salgate.model.Event;
import org.salgate.model.ErrorCode;
import org.salgate.model.SensorInfo;
import org.salgate.model.SensorState;
import org.salgate.model.SlowConsumerPolicy;
import org.salgate.model.StreamCounts;
import org.salgate.model.ProtocolInfo;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.ArrayList;
import java.util.List;
import org.salgate.wire.proto.WireProto;

/** The default codec: the messages of {@code salgate.proto}. */
public final class ProtobufCodec implements Codec {

    public static final String NAME = "protobuf";
    static final ProtobufCodec INSTANCE = new ProtobufCodec();

    private static final WireProto.Empty EMPTY = WireProto.Empty.getDefaultInstance();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public byte[] encode(Message message) {
        return toProto(message).toByteArray();
    }

    @Override
    public Message decode(byte[] bytes, int offset, int length) throws CodecException {
        WireProto.Frame frame;
        try {
            frame = WireProto.Frame.parser().parseFrom(bytes, offset, length);
        } catch (InvalidProtocolBufferException e) {
            throw new CodecException("malformed protobuf frame: " + e.getMessage(), e);
        }
        try {
            return fromProto(frame);
        } catch (RuntimeException e) {
            throw new CodecException("invalid frame content: " + e.getMessage(), e);
        }
    }

    // ------------------------------------------------------------------ to protobuf

    /**
     * The protobuf form of a message, for transports that carry the schema's messages themselves
     * (the gRPC service answers with a frame's reading, event or result).
     */
    public static WireProto.Frame toProto(Message message) {
        WireProto.Frame.Builder f = WireProto.Frame.newBuilder();
        if (message instanceof Hello h) {
            f.setHello(WireProto.Hello.newBuilder().setProtocolVersion(h.protocolVersion()).setCodec(h.codec())
                    .setClientName(h.clientName()).setCredentials(h.credentials()));
        } else if (message instanceof HelloReply r) {
            f.setHelloReply(WireProto.HelloReply.newBuilder().setAccepted(r.accepted())
                    .setProtocolVersion(r.protocolVersion()).setAgentId(r.agentId()).setError(r.error())
                    .setCode(r.code() == null ? "" : r.code().name()).setRole(r.role()));
        } else if (message instanceof Request r) {
            f.setRequest(toProto(r));
        } else if (message instanceof Response r) {
            f.setResponse(toProto(r));
        } else if (message instanceof StreamData d) {
            f.setStreamData(WireProto.StreamData.newBuilder().setStreamId(d.streamId()).setReading(toProto(d.reading())));
        } else if (message instanceof StreamEnded e) {
            f.setStreamEnded(WireProto.StreamEnded.newBuilder().setStreamId(e.streamId()).setReason(e.reason())
                    .setCounts(toProto(e.counts())));
        } else if (message instanceof EventNotice n) {
            Event e = n.event();
            WireProto.Event.Builder b = WireProto.Event.newBuilder()
                    .setType(WireProto.Event.Type.forNumber(e.type().ordinal()))
                    .setSubject(e.subject()).setTimestampMicros(e.timestampMicros()).setDetail(e.detail())
                    .setMissedBefore(n.missedBefore());
            if (e.state() != null) {
                b.setHasState(true).setState(toProto(e.state()));
            }
            f.setEvent(b);
        } else {
            throw new IllegalArgumentException("not a wire message: " + message);
        }
        return f.build();
    }

    private static WireProto.Request toProto(Request request) {
        WireProto.Request.Builder b = WireProto.Request.newBuilder().setId(request.id());
        Call call = request.call();
        if (call instanceof Call.ListSensors c) {
            b.setListSensors(WireProto.ListSensors.newBuilder().setActiveOnly(c.activeOnly()));
        } else if (call instanceof Call.DescribeSensor c) {
            b.setDescribeSensor(sensorRef(c.sensorId()));
        } else if (call instanceof Call.AddSensor c) {
            b.setAddSensor(text(c.sensorMl()));
        } else if (call instanceof Call.RemoveSensor c) {
            b.setRemoveSensor(sensorRef(c.sensorId()));
        } else if (call instanceof Call.ListCommands c) {
            b.setListCommands(sensorRef(c.sensorId()));
        } else if (call instanceof Call.Execute c) {
            b.setExecute(WireProto.Execute.newBuilder().setSensorId(c.sensorId()).setCommandId(c.commandId())
                    .putAllArguments(c.arguments()));
        } else if (call instanceof Call.SetupStream c) {
            b.setSetupStream(WireProto.SetupStream.newBuilder().setSensorId(c.sensorId()).setCommandId(c.commandId())
                    .putAllArguments(c.arguments()).setIntervalMs(c.intervalMs()).setPolicyValue(toProto(c.policy()))
                    .setShared(c.shared()));
        } else if (call instanceof Call.StartStream c) {
            b.setStartStream(WireProto.StreamRef.newBuilder().setStreamId(c.streamId()));
        } else if (call instanceof Call.StopStream c) {
            b.setStopStream(WireProto.StreamRef.newBuilder().setStreamId(c.streamId()));
        } else if (call instanceof Call.ListProtocols) {
            b.setListProtocols(EMPTY);
        } else if (call instanceof Call.AddProtocol c) {
            b.setAddProtocol(text(c.pcml()));
        } else if (call instanceof Call.RemoveProtocol c) {
            b.setRemoveProtocol(text(c.name()));
        } else if (call instanceof Call.GetPlatformConfig) {
            b.setGetPlatformConfig(EMPTY);
        } else if (call instanceof Call.SubscribeEvents) {
            b.setSubscribeEvents(EMPTY);
        } else if (call instanceof Call.UnsubscribeEvents) {
            b.setUnsubscribeEvents(EMPTY);
        } else if (call instanceof Call.Echo c) {
            b.setEcho(toProto(c.payload()));
        } else if (call instanceof Call.EchoReading c) {
            b.setEchoReading(toProto(c.reading()));
        } else {
            throw new IllegalArgumentException("unknown call " + call);
        }
        return b.build();
    }

    private static WireProto.Response toProto(Response response) {
        WireProto.Response.Builder b = WireProto.Response.newBuilder().setId(response.id());
        Result result = response.result();
        if (result instanceof Result.Ack) {
            b.setAck(EMPTY);
        } else if (result instanceof Result.Sensors r) {
            WireProto.SensorList.Builder list = WireProto.SensorList.newBuilder();
            for (SensorInfo s : r.sensors()) {
                list.addSensors(toProto(s));
            }
            b.setSensors(list);
        } else if (result instanceof Result.Sensor r) {
            b.setSensor(toProto(r.sensor()));
        } else if (result instanceof Result.Document r) {
            b.setDocument(text(r.xml()));
        } else if (result instanceof Result.ReadingResult r) {
            b.setReading(toProto(r.reading()));
        } else if (result instanceof Result.StreamHandle r) {
            b.setStream(WireProto.StreamHandle.newBuilder().setStreamId(r.streamId())
                    .setPolicyValue(toProto(r.policy())));
        } else if (result instanceof Result.StreamStopped r) {
            b.setStreamStopped(toProto(r.counts()));
        } else if (result instanceof Result.Protocols r) {
            WireProto.ProtocolList.Builder list = WireProto.ProtocolList.newBuilder();
            for (ProtocolInfo p : r.protocols()) {
                list.addProtocols(WireProto.ProtocolInfo.newBuilder().setName(p.name()).setType(p.type())
                        .setEndpoint(p.endpoint()).setSensorCount(p.sensorCount()));
            }
            b.setProtocols(list);
        } else if (result instanceof Result.Echoed r) {
            b.setEchoed(toProto(r.payload()));
        } else if (result instanceof Result.Failure r) {
            b.setFailure(WireProto.Failure.newBuilder().setCode(r.code().name()).setMessage(r.message()));
        } else {
            throw new IllegalArgumentException("unknown result " + result);
        }
        return b.build();
    }

    private static WireProto.SensorInfo toProto(SensorInfo s) {
        return WireProto.SensorInfo.newBuilder().setId(s.id()).setProtocol(s.protocol())
                .setState(toProto(s.state())).setDescription(s.description()).build();
    }

    private static WireProto.SensorState toProto(SensorState state) {
        return WireProto.SensorState.forNumber(state.ordinal());
    }

    static WireProto.Reading toProto(Reading r) {
        return WireProto.Reading.newBuilder().setSensorId(r.sensorId()).setTimestampMicros(r.timestampMicros())
                .setSequence(r.sequence()).setValue(toProto(r.value()))
                .setStatus(WireProto.ReadingStatus.forNumber(r.status().ordinal())).setError(r.error())
                .setUnit(r.unit()).setDeviceTimeMicros(r.deviceTimeMicros()).build();
    }

    static WireProto.Value toProto(Value v) {
        WireProto.Value.Builder b = WireProto.Value.newBuilder();
        if (v instanceof Value.Num n) {
            b.setNum(n.value());
        } else if (v instanceof Value.Int i) {
            b.setInt(i.value());
        } else if (v instanceof Value.Text t) {
            b.setText(t.value());
        } else if (v instanceof Value.Bytes bytes) {
            b.setBytes(ByteString.copyFrom(bytes.value()));
        } else {
            b.setAbsent(EMPTY);
        }
        return b.build();
    }

    private static WireProto.SensorRef sensorRef(String id) {
        return WireProto.SensorRef.newBuilder().setSensorId(id).build();
    }

    private static WireProto.Text text(String s) {
        return WireProto.Text.newBuilder().setText(s).build();
    }

    // ------------------------------------------------------------------ from protobuf

    /**
     * The message of a protobuf frame, for codecs that read the schema's messages in another format.
     *
     * @throws IllegalArgumentException if the frame is empty or holds values the model refuses
     */
    public static Message fromProto(WireProto.Frame f) {
        switch (f.getKindCase()) {
            case HELLO: {
                WireProto.Hello h = f.getHello();
                return new Hello(h.getProtocolVersion(), h.getCodec(), h.getClientName(), h.getCredentials());
            }
            case HELLO_REPLY: {
                WireProto.HelloReply r = f.getHelloReply();
                return new HelloReply(r.getAccepted(), r.getProtocolVersion(), r.getAgentId(), r.getError(),
                        r.getAccepted() ? null : r.getCode().isEmpty() ? ErrorCode.PROTOCOL_ERROR : errorCode(r.getCode()),
                        r.getRole());
            }
            case REQUEST:
                return new Request(f.getRequest().getId(), fromProto(f.getRequest()));
            case RESPONSE:
                return new Response(f.getResponse().getId(), fromProto(f.getResponse()));
            case STREAM_DATA:
                return new StreamData(f.getStreamData().getStreamId(), fromProto(f.getStreamData().getReading()));
            case STREAM_ENDED:
                return new StreamEnded(f.getStreamEnded().getStreamId(), f.getStreamEnded().getReason(),
                        fromProto(f.getStreamEnded().getCounts()));
            case EVENT: {
                WireProto.Event e = f.getEvent();
                return new EventNotice(new Event(enumAt(Event.Type.values(), e.getTypeValue(), "event type"),
                        e.getSubject(), e.getHasState() ? fromProto(e.getStateValue()) : null,
                        e.getTimestampMicros(), e.getDetail()), e.getMissedBefore());
            }
            default:
                throw new IllegalArgumentException("empty frame");
        }
    }

    /**
     * The call of a protobuf request, for transports that receive the schema's call messages
     * themselves (the gRPC service's typed calls).
     *
     * @throws IllegalArgumentException if the request has no call or an invalid one
     */
    public static Call call(WireProto.Request r) {
        return fromProto(r);
    }

    private static Call fromProto(WireProto.Request r) {
        switch (r.getCallCase()) {
            case LIST_SENSORS: return new Call.ListSensors(r.getListSensors().getActiveOnly());
            case DESCRIBE_SENSOR: return new Call.DescribeSensor(r.getDescribeSensor().getSensorId());
            case ADD_SENSOR: return new Call.AddSensor(r.getAddSensor().getText());
            case REMOVE_SENSOR: return new Call.RemoveSensor(r.getRemoveSensor().getSensorId());
            case LIST_COMMANDS: return new Call.ListCommands(r.getListCommands().getSensorId());
            case EXECUTE: {
                WireProto.Execute e = r.getExecute();
                return new Call.Execute(e.getSensorId(), e.getCommandId(), e.getArgumentsMap());
            }
            case SETUP_STREAM: {
                WireProto.SetupStream s = r.getSetupStream();
                return new Call.SetupStream(s.getSensorId(), s.getCommandId(), s.getArgumentsMap(), s.getIntervalMs(),
                        policyFromProto(s.getPolicyValue()), s.getShared());
            }
            case START_STREAM: return new Call.StartStream(r.getStartStream().getStreamId());
            case STOP_STREAM: return new Call.StopStream(r.getStopStream().getStreamId());
            case LIST_PROTOCOLS: return new Call.ListProtocols();
            case ADD_PROTOCOL: return new Call.AddProtocol(r.getAddProtocol().getText());
            case REMOVE_PROTOCOL: return new Call.RemoveProtocol(r.getRemoveProtocol().getText());
            case GET_PLATFORM_CONFIG: return new Call.GetPlatformConfig();
            case SUBSCRIBE_EVENTS: return new Call.SubscribeEvents();
            case UNSUBSCRIBE_EVENTS: return new Call.UnsubscribeEvents();
            case ECHO: return new Call.Echo(fromProto(r.getEcho()));
            case ECHO_READING: return new Call.EchoReading(fromProto(r.getEchoReading()));
            default: throw new IllegalArgumentException("request " + r.getId() + " has no call");
        }
    }

    private static Result fromProto(WireProto.Response r) {
        switch (r.getResultCase()) {
            case ACK: return Result.ack();
            case SENSORS: {
                List<SensorInfo> sensors = new ArrayList<>(r.getSensors().getSensorsCount());
                for (WireProto.SensorInfo s : r.getSensors().getSensorsList()) {
                    sensors.add(fromProto(s));
                }
                return new Result.Sensors(sensors);
            }
            case SENSOR: return new Result.Sensor(fromProto(r.getSensor()));
            case DOCUMENT: return new Result.Document(r.getDocument().getText());
            case READING: return new Result.ReadingResult(fromProto(r.getReading()));
            case STREAM: {
                SlowConsumerPolicy policy = policyFromProto(r.getStream().getPolicyValue());
                return new Result.StreamHandle(r.getStream().getStreamId(),
                        policy == null ? SlowConsumerPolicy.BLOCK : policy);
            }
            case STREAM_STOPPED: return new Result.StreamStopped(fromProto(r.getStreamStopped()));
            case PROTOCOLS: {
                List<ProtocolInfo> protocols = new ArrayList<>(r.getProtocols().getProtocolsCount());
                for (WireProto.ProtocolInfo p : r.getProtocols().getProtocolsList()) {
                    protocols.add(new ProtocolInfo(p.getName(), p.getType(), p.getEndpoint(), p.getSensorCount()));
                }
                return new Result.Protocols(protocols);
            }
            case ECHOED: return new Result.Echoed(fromProto(r.getEchoed()));
            case FAILURE: return new Result.Failure(errorCode(r.getFailure().getCode()), r.getFailure().getMessage());
            default: throw new IllegalArgumentException("response " + r.getId() + " has no result");
        }
    }

    private static SensorInfo fromProto(WireProto.SensorInfo s) {
        return new SensorInfo(s.getId(), s.getProtocol(), fromProto(s.getStateValue()), s.getDescription());
    }

    private static SensorState fromProto(int state) {
        return enumAt(SensorState.values(), state, "sensor state");
    }

    /**
     * A reading from its frame. A status this version does not know (a newer peer's) is read as
     * {@link Reading.Status#ERROR} without a value, its error naming the number, so the reading is
     * still delivered and counted as a failed read.
     */
    static Reading fromProto(WireProto.Reading r) {
        int status = r.getStatusValue();
        if (status < 0 || status >= Reading.Status.values().length) {
            String why = "the peer sent reading status " + status + ", unknown to this version"
                    + (r.getError().isEmpty() ? "" : ": " + r.getError());
            return new Reading(r.getSensorId(), r.getTimestampMicros(), r.getSequence(), Value.absent(),
                    Reading.Status.ERROR, why, r.getUnit(), r.getDeviceTimeMicros());
        }
        return new Reading(r.getSensorId(), r.getTimestampMicros(), r.getSequence(), fromProto(r.getValue()),
                Reading.Status.values()[status], r.getError(), r.getUnit(), r.getDeviceTimeMicros());
    }

    static Value fromProto(WireProto.Value v) {
        switch (v.getKindCase()) {
            case NUM: return new Value.Num(v.getNum());
            case INT: return new Value.Int(v.getInt());
            case TEXT: return new Value.Text(v.getText());
            case BYTES: return new Value.Bytes(v.getBytes().toByteArray());
            default: return Value.absent();
        }
    }

    private static ErrorCode errorCode(String name) {
        try {
            return ErrorCode.valueOf(name);
        } catch (IllegalArgumentException e) {
            return ErrorCode.INTERNAL;
        }
    }

    private static WireProto.StreamCounts toProto(StreamCounts c) {
        return WireProto.StreamCounts.newBuilder().setDelivered(c.delivered()).setSkipped(c.skipped())
                .setDropped(c.dropped()).build();
    }

    private static StreamCounts fromProto(WireProto.StreamCounts c) {
        return new StreamCounts(c.getDelivered(), c.getSkipped(), c.getDropped());
    }

    /** A policy's number on the wire: 0 for none (the agent's default), else its ordinal + 1. */
    private static int toProto(SlowConsumerPolicy policy) {
        return policy == null ? 0 : policy.ordinal() + 1;
    }

    private static SlowConsumerPolicy policyFromProto(int number) {
        return number == 0 ? null : enumAt(SlowConsumerPolicy.values(), number - 1, "slow-consumer policy");
    }

    private static <E extends Enum<E>> E enumAt(E[] values, int index, String what) {
        if (index < 0 || index >= values.length) {
            throw new IllegalArgumentException("unknown " + what + " " + index);
        }
        return values[index];
    }
}
