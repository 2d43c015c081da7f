package org.salgate.plugin.onewire;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.salgate.plugin.spi.ChannelRead;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.plugin.spi.DeviceProtocol;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One owserver and the 1-Wire devices on its buses: each channel reads one property of one
 * device. At every connect the protocol lists the devices owserver finds and logs them (family
 * and path), which is how an operator finds the paths to configure ({@link #devices()}). With
 * parameter {@code discover}, {@link #discover()} lists that directory and gives a channel for each
 * device of a family it knows ({@link OnewireFamily}), read like a configured one.
 *
 * <p>owserver unreachable, or a reply that breaks the protocol, is a lost connection
 * ({@link SensorDisconnectedException}): the agent marks every channel DISCONNECTED and
 * reconnects. A device missing from the bus while owserver answers fails that device's channels
 * alone, with a message naming the device, and they read again once it is back.
 */
final class OnewireProtocol implements DeviceProtocol {

    private static final Logger log = LoggerFactory.getLogger(OnewireProtocol.class);
    private static final Pattern DEVICE = Pattern.compile("/[0-9A-Fa-f]{2}\\.[0-9A-Fa-f]{12}");

    private final String endpoint;
    private final Supplier<Owserver> servers;
    private final OnewireSettings settings;
    private final Map<String, OnewireChannel> channels = new LinkedHashMap<>();
    /** Channels the agent read that are not configured (discovered ones), by name. */
    private final Map<String, OnewireChannel> others = new LinkedHashMap<>();
    private Owserver server;

    /** @throws IllegalArgumentException naming the first channel that is wrong */
    OnewireProtocol(ProtocolConfig config, OnewireSettings settings, String endpoint, Supplier<Owserver> servers) {
        this.endpoint = endpoint;
        this.servers = servers;
        this.settings = settings;
        for (ChannelConfig c : config.channels()) {
            channels.put(c.name(), OnewireChannel.of(c, settings.uncached()));
        }
    }

    @Override
    public synchronized void connect() throws Exception {
        disconnect();
        Owserver s = servers.get();
        try {
            s.open();
            server = s;
            List<String> found = devices();
            log.info("owserver {} lists {} 1-Wire devices: {}", endpoint, found.size(), String.join(", ", found));
        } catch (IOException | Owserver.ErrorReply e) {
            s.close();
            server = null;
            throw new SensorDisconnectedException("cannot reach owserver " + endpoint + ": " + e.getMessage(), e);
        }
    }

    /**
     * The devices owserver finds on its buses now, each as {@code FAMILY path}, such as
     * {@code 28 /28.4AEC29CDBAAB}; its own directories (settings, statistics...) left out.
     */
    synchronized List<String> devices() throws IOException, Owserver.ErrorReply {
        List<String> found = new ArrayList<>();
        for (String path : connected().dirall("/")) {
            if (DEVICE.matcher(path).matches()) {
                found.add(path.substring(1, 3) + " " + path);
            }
        }
        return found;
    }

    /**
     * The devices of a known family in the directory of parameter {@code discover}, one channel
     * each; none without the parameter.
     *
     * @throws SensorDisconnectedException when owserver is lost meanwhile
     * @throws PluginException when owserver refuses to list the directory (one that does not exist)
     */
    @Override
    public synchronized List<ChannelConfig> discover() throws Exception {
        String directory = settings.discover();
        if (directory == null) {
            return List.of();
        }
        List<String> listed;
        try {
            listed = connectedOrLost().dirall(directory);
        } catch (Owserver.ErrorReply e) {
            throw new PluginException("cannot list 1-Wire directory " + directory + " (parameter discover) on owserver "
                    + endpoint + ": " + e.getMessage(), e);
        } catch (IOException e) {
            disconnect();
            throw new SensorDisconnectedException("owserver " + endpoint + " did not answer or the connection was"
                    + " lost while listing " + directory + ": " + e.getMessage(), e);
        }
        List<ChannelConfig> found = new ArrayList<>();
        for (String path : listed) {
            OnewireFamily.channel(path).ifPresent(found::add);
        }
        return found;
    }

    @Override
    public synchronized void disconnect() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    @Override
    public synchronized List<ChannelValue> read(List<ChannelRead> reads) throws Exception {
        Owserver s = connectedOrLost();
        List<ChannelValue> values = new ArrayList<>(reads.size());
        for (ChannelRead r : reads) {
            OnewireChannel c = channel(r.channel());
            try {
                byte[] data = s.read(c.requestPath());
                try {
                    values.add(ChannelValue.of(c.kind().value(data)));
                } catch (NumberFormatException e) {
                    values.add(ChannelValue.failed("1-Wire channel " + c.name() + " (" + c.path() + "): "
                            + e.getMessage() + "; give the channel attribute type=\"text\" to read it as text"));
                }
            } catch (Owserver.ErrorReply e) {
                values.add(ChannelValue.failed(missing(s, c, e)));
            } catch (IOException e) {
                disconnect();
                throw new SensorDisconnectedException("owserver " + endpoint + " did not answer or the connection was"
                        + " lost: " + e.getMessage(), e);
            }
        }
        return values;
    }

    /** A configured channel, else one the agent found by {@link #discover()}, read by its own path. */
    private OnewireChannel channel(ChannelConfig config) throws PluginException {
        OnewireChannel c = channels.get(config.name());
        if (c != null) {
            return c;
        }
        c = others.get(config.name());
        String path = config.attributes().get("path");
        if (c == null || !c.path().equals(path)) {
            try {
                c = OnewireChannel.of(config, settings.uncached());
            } catch (IllegalArgumentException e) {
                throw new PluginException(e.getMessage(), e);
            }
            others.put(config.name(), c);
        }
        return c;
    }

    /** Why a channel failed: its device absent from the bus, or owserver's refusal of its path. */
    private String missing(Owserver s, OnewireChannel c, Owserver.ErrorReply e) throws IOException {
        if (e.noSuchPath() && !s.present(c.device())) {
            return "1-Wire device " + c.device().substring(1) + " is not on owserver " + endpoint
                    + "'s bus now (" + e.getMessage() + ")";
        }
        return "1-Wire channel " + c.name() + ": " + e.getMessage();
    }

    @Override
    public boolean concurrentRequests() {
        return false;
    }

    private Owserver connected() throws IOException {
        if (server == null) {
            throw new IOException("owserver " + endpoint + " is not connected");
        }
        return server;
    }

    private Owserver connectedOrLost() throws SensorDisconnectedException {
        if (server == null) {
            throw new SensorDisconnectedException("owserver " + endpoint + " is not connected");
        }
        return server;
    }
}
