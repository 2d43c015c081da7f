package org.salgate.model;

import java.util.HashMap;
import java.util.Map;

/**
 * Every call of the protocol, declared once: its {@link Call} type, the {@link Result} type that
 * answers it, whether only an admin may make it, and whether it is cheap enough to answer on a
 * transport's I/O thread (no plugin call, no document to parse or build). The agent's dispatcher
 * and access check read these. A new operation is a record in {@link Call} (and one in
 * {@link Result} if its answer is new), a constant here, a handler in the agent's dispatcher (which
 * refuses to start without one for every operation that is not a {@link #probe()}), its field in
 * the protobuf schema and its mapping there, a sample in the wire tests' samples (a test holds them
 * to this declaration), and the typed calls that expose it: the Java client's, a REST route with
 * its OpenAPI path, an rpc of the typed gRPC service.
 *
 * <p>{@link #ECHO} and {@link #ECHO_READING} are not the SAL API but transport-level probes: they stay
 * in the wire schema so that a transport's conformance suite and {@code bench transport} can send
 * every kind of value across a transport and back with no agent behind it, and the agent refuses
 * them ({@link ErrorCode#UNSUPPORTED}).
 */
public enum Operation {
    LIST_SENSORS(Call.ListSensors.class, Result.Sensors.class, Access.ANYONE, Cost.INLINE, "list sensors"),
    DESCRIBE_SENSOR(Call.DescribeSensor.class, Result.Document.class, Access.ANYONE, Cost.WORKER, "describe sensor"),
    ADD_SENSOR(Call.AddSensor.class, Result.Sensor.class, Access.ADMIN, Cost.WORKER, "add sensor"),
    REMOVE_SENSOR(Call.RemoveSensor.class, Result.Ack.class, Access.ADMIN, Cost.WORKER, "remove sensor"),
    LIST_COMMANDS(Call.ListCommands.class, Result.Document.class, Access.ANYONE, Cost.WORKER, "list commands"),
    EXECUTE(Call.Execute.class, Result.ReadingResult.class, Access.ANYONE, Cost.WORKER, "execute"),
    SETUP_STREAM(Call.SetupStream.class, Result.StreamHandle.class, Access.ANYONE, Cost.INLINE, "set up stream"),
    START_STREAM(Call.StartStream.class, Result.Ack.class, Access.ANYONE, Cost.INLINE, "start stream"),
    STOP_STREAM(Call.StopStream.class, Result.StreamStopped.class, Access.ANYONE, Cost.INLINE, "stop stream"),
    LIST_PROTOCOLS(Call.ListProtocols.class, Result.Protocols.class, Access.ANYONE, Cost.INLINE, "list protocols"),
    ADD_PROTOCOL(Call.AddProtocol.class, Result.Protocols.class, Access.ADMIN, Cost.WORKER, "add protocol"),
    REMOVE_PROTOCOL(Call.RemoveProtocol.class, Result.Ack.class, Access.ADMIN, Cost.WORKER, "remove protocol"),
    GET_PLATFORM_CONFIG(Call.GetPlatformConfig.class, Result.Document.class, Access.ADMIN, Cost.WORKER,
            "get platform config"),
    SUBSCRIBE_EVENTS(Call.SubscribeEvents.class, Result.Ack.class, Access.ANYONE, Cost.INLINE, "subscribe events"),
    UNSUBSCRIBE_EVENTS(Call.UnsubscribeEvents.class, Result.Ack.class, Access.ANYONE, Cost.INLINE,
            "unsubscribe events"),
    ECHO(Call.Echo.class, Result.Echoed.class, "echo"),
    ECHO_READING(Call.EchoReading.class, Result.ReadingResult.class, "echo reading");

    /** Who may make a call. */
    public enum Access { ANYONE, ADMIN }

    /** Where the agent answers a call: on the I/O thread that read it, or on its worker pool. */
    public enum Cost { INLINE, WORKER }

    private static final Map<Class<? extends Call>, Operation> BY_TYPE = new HashMap<>();

    static {
        for (Operation o : values()) {
            BY_TYPE.put(o.callType, o);
        }
    }

    private final Class<? extends Call> callType;
    private final Class<? extends Result> resultType;
    private final Access access;
    private final Cost cost;
    private final String label;
    private final boolean probe;

    /** An operation of the SAL API, which the agent answers. */
    Operation(Class<? extends Call> callType, Class<? extends Result> resultType, Access access, Cost cost,
              String label) {
        this(callType, resultType, access, cost, label, false);
    }

    /** A transport-level probe, which anyone may send and which costs nothing to answer. */
    Operation(Class<? extends Call> callType, Class<? extends Result> resultType, String label) {
        this(callType, resultType, Access.ANYONE, Cost.INLINE, label, true);
    }

    Operation(Class<? extends Call> callType, Class<? extends Result> resultType, Access access, Cost cost,
              String label, boolean probe) {
        this.callType = callType;
        this.resultType = resultType;
        this.access = access;
        this.cost = cost;
        this.label = label;
        this.probe = probe;
    }

    /** The operation a call is. */
    public static Operation of(Call call) {
        return ofType(call.getClass());
    }

    /** The operation whose calls are of {@code type}. */
    public static Operation ofType(Class<? extends Call> type) {
        Operation o = BY_TYPE.get(type);
        if (o == null) {
            throw new IllegalStateException("no operation is declared for " + type.getName());
        }
        return o;
    }

    public Class<? extends Call> callType() {
        return callType;
    }

    /** The result that answers the call when it succeeds (a failure is always {@link Result.Failure}). */
    public Class<? extends Result> resultType() {
        return resultType;
    }

    public boolean adminOnly() {
        return access == Access.ADMIN;
    }

    /** Whether the agent may answer it on the transport's I/O thread. */
    public boolean inline() {
        return cost == Cost.INLINE;
    }

    /**
     * Whether it is a transport-level probe rather than a call of the SAL API: the agent refuses it
     * ({@link ErrorCode#UNSUPPORTED}); a transport's test server and the bench's echo server answer it.
     */
    public boolean probe() {
        return probe;
    }

    /** How a person names it, as in "its token has the reader role" refusals: {@code add sensor}. */
    public String label() {
        return label;
    }
}
