package org.salgate.plugin.spi;

import java.util.List;
import java.util.Map;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.SensorDescription;
import org.salgate.model.Value;

/**
 * One running protocol: a plugin bound to an endpoint, serving some sensors. The agent calls it
 * from several threads at once, so implementations are thread-safe. Whatever a method throws is
 * caught by the agent and reported on that request or reading only.
 */
public interface SensorProtocol extends AutoCloseable {

    /** The sensors this protocol serves now. */
    List<SensorDescription> sensors();

    /** The commands of one of its sensors. */
    List<CommandDescription> commands(String sensorId);

    /**
     * Executes a command once and returns the value read. The agent has already checked that the
     * sensor and command exist and that the arguments are within their bounds, and has filled in
     * defaults for arguments left out.
     *
     * @throws SensorUnavailableException if the machine cannot give this value (reported as unavailable)
     * @throws Exception any other failure (reported as an error reading)
     */
    Value execute(String sensorId, String commandId, Map<String, String> arguments) throws Exception;

    /**
     * Executes a command once, as {@link #execute} does, and returns the value with its unit and
     * its device's timestamp when the protocol knows them; the agent calls this one. By default the
     * value {@link #execute} returns, in the unit the command declares, without a device time.
     *
     * @throws SensorUnavailableException if the machine cannot give this value (reported as unavailable)
     * @throws SensorDisconnectedException if the sensor's device cannot be reached (reported as disconnected)
     * @throws Exception any other failure (reported as an error reading)
     */
    default Measurement measure(String sensorId, String commandId, Map<String, String> arguments) throws Exception {
        Value value = execute(sensorId, commandId, arguments);
        return Measurement.of(value == null ? Value.absent() : value);
    }

    /**
     * Adds a sensor from its description, when the protocol supports that.
     *
     * @return the description as the protocol will serve it
     * @throws PluginException if the protocol cannot serve it
     */
    default SensorDescription addSensor(SensorDescription description) throws PluginException {
        throw new PluginException("this protocol cannot add sensors");
    }

    /**
     * Removes a sensor this protocol serves.
     *
     * @throws PluginException if the protocol cannot remove it
     */
    default void removeSensor(String sensorId) throws PluginException {
        throw new PluginException("this protocol cannot remove sensors");
    }

    // ---- devices: what a protocol that talks to real hardware adds; the defaults fit protocols
    // whose sensors are the machine itself or software.

    /**
     * Opens the connection to the device. The agent's device runtime calls it before the
     * protocol's first request and, after the connection was lost, to reconnect with a capped
     * exponential backoff; until it returns, the protocol's sensors are disconnected and reads fail
     * fast without calling the protocol. Nothing to do by default.
     *
     * @throws Exception when the device cannot be reached now
     */
    default void connect() throws Exception {
    }

    /**
     * Closes the connection to the device, after a failure (before the next {@link #connect()})
     * and before {@link #close()}. Must not throw.
     */
    default void disconnect() {
    }

    /**
     * Whether the device takes requests from several threads at once; false by default (one
     * serial bus, one TCP connection). The agent takes every read, write and connect of a protocol
     * with a device endpoint on one lane, in arrival order. When this says false, it runs them one
     * at a time; when true, up to the protocol's parameter {@code concurrent-requests} (default 4)
     * batches of reads are in flight at once, each on a thread of the lane, while a write, a
     * connect and a discovery wait for them and run alone, so that writes stay ordered with polls.
     * Protocols without a device endpoint (the machine, software sensors) are called from several
     * threads at once.
     */
    default boolean concurrentRequests() {
        return false;
    }

    /**
     * Reads many channels at once: the channels of every stream and read due together on this
     * device. A driver may coalesce them (contiguous Modbus registers into one request). The
     * values are raw: the agent applies each channel's scale and offset.
     *
     * @return one value per read, in order; a channel that failed alone is {@link ChannelValue#failed}
     * @throws SensorDisconnectedException when the connection to the device is lost
     * @throws Exception when the whole batch failed
     */
    default List<ChannelValue> read(List<ChannelRead> reads) throws Exception {
        throw new PluginException("this protocol has no channels");
    }

    /**
     * The channels the device says it has, found by asking it: an OPC UA subtree browsed, an SNMP
     * table walked, a 1-Wire bus listed. The agent calls it on the device's lane after each connect
     * and, when the protocol sets parameter {@code discover-interval-ms}, at that interval; it serves
     * each channel found as a sensor {@code <protocol>.<channel>}, as it serves configured ones: a
     * channel found for the first time is added (a SENSOR_ADDED event), one found before and missing
     * now is reported DISCONNECTED until it is found again. A configured channel of the same name
     * wins, and discovered sensors are never written to the saved configuration (they are found again
     * at the next start). What to discover is the driver's parameter, set by the operator; with none,
     * return an empty list, as this default does.
     *
     * @return the channels found, each named uniquely within the protocol
     * @throws SensorDisconnectedException when the connection to the device is lost meanwhile
     * @throws Exception when discovery failed (logged, and tried again at the next connect or
     *                   interval; the channels found before are kept)
     */
    default List<ChannelConfig> discover() throws Exception {
        return List.of();
    }

    /**
     * Whether the device reports this channel's value by itself, through the context's
     * {@link PluginContext#push() push sink}, rather than being asked: the agent then never reads
     * the channel with {@link #read(List)}, and serves the latest value pushed (UNAVAILABLE until
     * the first). False by default.
     */
    default boolean pushes(ChannelConfig channel) {
        return false;
    }

    /**
     * Writes one channel's raw value (the agent has inverted its scale and offset and checked its
     * bounds); ordered with reads on the protocol's lane.
     *
     * @throws SensorDisconnectedException when the connection to the device is lost
     * @throws Exception when the device refused the write
     */
    default void write(ChannelConfig channel, Value raw) throws Exception {
        throw new PluginException("this protocol cannot write channels");
    }

    /** Releases the protocol's resources. Must not throw. */
    @Override
    void close();
}
