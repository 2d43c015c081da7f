package org.salgate.mqtt;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.eclipse.paho.mqttv5.client.IMqttToken;
import org.eclipse.paho.mqttv5.client.MqttActionListener;
import org.eclipse.paho.mqttv5.client.MqttAsyncClient;
import org.eclipse.paho.mqttv5.client.MqttConnectionOptions;
import org.eclipse.paho.mqttv5.client.MqttDisconnectResponse;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.eclipse.paho.mqttv5.common.packet.MqttProperties;
import org.eclipse.paho.mqttv5.common.packet.MqttReturnCode;
import org.salgate.transport.tls.TlsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bridge's MQTT side: one Paho client, connected with a retained last will ({@code offline} on
 * the status topic), reconnected with a doubling wait after every failure. One sender thread
 * publishes, a bounded window of unacknowledged messages at a time: on each connect the retained
 * state (descriptions, then {@code online}), then changed descriptions as they come and the queued
 * messages from the oldest; a message leaves the queue only when the broker has
 * acknowledged it, so after a reconnect the unacknowledged ones are sent again (at least once, in
 * order). The messages that waited when the connection came up go at most at the drain rate
 * ({@link DrainRate}); those queued after them go as fast as the window allows.
 */
final class MqttPublisher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MqttPublisher.class);
    /** Messages sent and not yet acknowledged; below Mosquitto's default receive maximum of 20. */
    static final int WINDOW = 16;
    private static final int CONNECT_TIMEOUT_S = 10;
    private static final int KEEP_ALIVE_S = 30;
    static final String ONLINE = "online";
    static final String OFFLINE = "offline";
    /** MQTT 5's DISCONNECT reason code asking the broker to publish the will. */
    private static final int DISCONNECT_WITH_WILL = 0x04;

    /** One connection's window; acknowledgements of an earlier connection do not touch the current one. */
    private static final class Link {
        final Semaphore window = new Semaphore(WINDOW);
    }

    private final MqttBridgeConfig config;
    private final Topics topics;
    private final ForwardStore store;
    private final MqttAsyncClient client;
    private final ScheduledExecutorService connector;
    private final Thread sender;
    private final Semaphore wake = new Semaphore(0);
    private final Map<String, byte[]> retained = new ConcurrentHashMap<>();
    /** Retained topics changed since the sender last published them. */
    private final Queue<String> changedRetained = new ConcurrentLinkedQueue<>();
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong failedAttempts = new AtomicLong();
    private final DrainRate drainRate;
    private volatile Link link;
    private volatile boolean running = true;
    /** The convention published in, or null for the bridge's own topics. */
    private final MqttConvention convention;
    private long backoffMs;

    MqttPublisher(MqttBridgeConfig config, String clientId, Topics topics, ForwardStore store) throws MqttException {
        this(config, clientId, topics, store, null);
    }

    MqttPublisher(MqttBridgeConfig config, String clientId, Topics topics, ForwardStore store,
                  MqttConvention convention) throws MqttException {
        this.config = config;
        this.convention = convention;
        this.topics = topics;
        this.store = store;
        this.client = new MqttAsyncClient(config.serverUri(), clientId, new MemoryPersistence());
        this.client.setCallback(new Callback());
        this.connector = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "sal-mqtt-connect"));
        this.sender = daemon(this::sendLoop, "sal-mqtt-send");
        this.backoffMs = config.reconnectMin().toMillis();
        this.drainRate = new DrainRate(config.drainRate());
    }

    void start() {
        sender.start();
        connector.execute(this::connect);
    }

    /** Sets retained state (a description); published now when connected and again on every connect. Empty clears it. */
    void retain(String topic, byte[] payload) {
        if (payload.length == 0) {
            retained.remove(topic);
        } else {
            retained.put(topic, payload);
        }
        changedRetained.add(topic);
        wake.release();
    }

    /** A queued message was appended: the sender looks for it. */
    void queued() {
        wake.release();
    }

    long published() {
        return published.get();
    }

    long refused() {
        return refused.get();
    }

    boolean isConnected() {
        return link != null;
    }

    private void connect() {
        if (!running) {
            return;
        }
        MqttConnectionOptions o = new MqttConnectionOptions();
        o.setCleanStart(true);
        o.setAutomaticReconnect(false);
        o.setConnectionTimeout(CONNECT_TIMEOUT_S);
        o.setKeepAliveInterval(KEEP_ALIVE_S);
        if (config.username() != null) {
            o.setUserName(config.username());
        }
        if (config.password() != null) {
            o.setPassword(config.password());
        }
        TlsConfig tls = config.tls();
        if (tls != null) {
            // Paho makes each connection's socket from this factory and, with host-name verification
            // on, checks that the broker's certificate names the host of the URL.
            o.setSocketFactory(tls.sslContext().getSocketFactory());
            o.setHttpsHostnameVerificationEnabled(tls.verifiesHostname());
        }
        if (convention != null) {
            MqttConvention.Message will = convention.nextWill();
            o.setWill(will.topic(), message(will.payload(), will.qos(), will.retained()));
        } else {
            o.setWill(topics.status(), message(Payloads.text(OFFLINE), config.qos(), true));
        }
        try {
            client.connect(o).waitForCompletion(TimeUnit.SECONDS.toMillis(CONNECT_TIMEOUT_S + 1));
            if (convention != null) {
                for (String filter : convention.subscriptions()) {
                    client.subscribe(filter, 1).waitForCompletion(TimeUnit.SECONDS.toMillis(CONNECT_TIMEOUT_S));
                }
            }
        } catch (MqttException | RuntimeException e) {
            long n = failedAttempts.incrementAndGet();
            String refusal = refusal(e);
            if (n == 1 && refusal != null) {
                LOG.error("{}; retrying, up to every {} s; {} messages wait", refusal,
                        config.reconnectMax().toSeconds(), store.size());
            } else if (n == 1) {
                LOG.warn("cannot reach the MQTT broker {}: {}{}; retrying, up to every {} s; {} messages wait",
                        config.serverUri(), e.getMessage(), BrokerHints.forFailedConnect(config.serverUri(), e),
                        config.reconnectMax().toSeconds(), store.size());
            } else {
                LOG.debug("MQTT connection attempt {} failed: {}", n, e.getMessage());
            }
            forceDisconnect();
            scheduleConnect();
            return;
        }
        long waiting = store.size();
        LOG.info("connected to the MQTT broker {} as {}{}; {} messages wait{}", config.serverUri(),
                client.getClientId(), failedAttempts.get() > 0 ? " after " + failedAttempts.get() + " failed attempts"
                        : "", waiting, waiting > 0 && drainRate.limits()
                        ? ", sent at most " + config.drainRate() + " a second (--mqtt-drain-rate)" : "");
        failedAttempts.set(0);
        backoffMs = config.reconnectMin().toMillis();
        link = new Link();
        wake.release();
    }

    /**
     * Why the broker refused the bridge, when retrying as is cannot help: its credentials were
     * refused, or its certificate was not trusted; null for other failures (the broker is down).
     */
    private String refusal(Exception e) {
        if (e instanceof MqttException m && (m.getReasonCode() == MqttReturnCode.RETURN_CODE_BAD_USERNAME_OR_PASSWORD
                || m.getReasonCode() == MqttReturnCode.RETURN_CODE_NOT_AUTHORIZED)) {
            return "the MQTT broker " + config.serverUri() + " refused the bridge's credentials ("
                    + (config.username() == null ? "no user name" : "user '" + config.username() + "'")
                    + (config.password() == null ? ", no password" : "") + "): " + m.getMessage() + " (reason "
                    + m.getReasonCode() + "); check the user name and password given to the bridge"
                    + " (--mqtt-username, --mqtt-password-file)";
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof javax.net.ssl.SSLException && BrokerHints.closedDuringHandshake(t)) {
                return "TLS handshake with the MQTT broker " + config.serverUri() + " failed: " + t.getMessage()
                        + BrokerHints.plainBroker(config.serverUri());
            }
            if (t instanceof javax.net.ssl.SSLException) {
                return "TLS handshake with the MQTT broker " + config.serverUri() + " failed: " + t.getMessage()
                        + "; the bridge uses " + config.tls() + ", and the broker's certificate must name the"
                        + " host of the URL";
            }
        }
        return null;
    }

    private void scheduleConnect() {
        if (!running) {
            return;
        }
        long wait = backoffMs;
        backoffMs = Math.min(backoffMs * 2, config.reconnectMax().toMillis());
        try {
            connector.schedule(this::connect, wait, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // closing
        }
    }

    private void forceDisconnect() {
        try {
            if (client.isConnected()) {
                client.disconnectForcibly(0, 1000, false);
            }
        } catch (MqttException e) {
            LOG.debug("forced MQTT disconnect failed: {}", e.getMessage());
        }
    }

    private void sendLoop() {
        Link current = null;
        long cursor = 0;
        long backlogEnd = 0;
        Queue<String[]> greeting = new ArrayDeque<>();
        boolean unborn = false;
        while (running) {
            try {
                Link l = link;
                if (l == null) {
                    current = null;
                    awaitWork();
                    continue;
                }
                if (l != current) {
                    current = l;
                    cursor = store.firstKey();
                    backlogEnd = store.nextKey();
                    drainRate.restart(System.nanoTime());
                    changedRetained.clear();
                    greeting.clear();
                    retained.keySet().forEach(t -> greeting.add(new String[] {t}));
                    if (convention == null) {
                        greeting.add(new String[] {topics.status(), ONLINE});
                    }
                    unborn = convention != null;
                }
                if (convention != null) {
                    if (!control(l, unborn)) {
                        continue;
                    }
                    unborn = false;
                }
                String[] retainedNext = greeting.peek();
                String changed = retainedNext == null ? changedRetained.peek() : null;
                if (retainedNext != null || changed != null) {
                    if (!l.window.tryAcquire(200, TimeUnit.MILLISECONDS)) {
                        continue;
                    }
                    String topic = retainedNext != null ? retainedNext[0] : changed;
                    byte[] payload = retainedNext != null && retainedNext.length > 1 ? Payloads.text(retainedNext[1])
                            : retained.getOrDefault(topic, new byte[0]);
                    try {
                        client.publish(topic, message(payload, config.qos(), true), null, released(l));
                        if (retainedNext != null) {
                            greeting.poll();
                        } else {
                            changedRetained.poll();
                        }
                    } catch (MqttException ex) {
                        l.window.release();
                        LOG.debug("retained publish of {} refused by the client: {}", topic, ex.getMessage());
                        awaitWork();
                    }
                    continue;
                }
                ForwardStore.Entry e = store.next(cursor);
                if (e == null) {
                    awaitWork();
                    continue;
                }
                if (!l.window.tryAcquire(200, TimeUnit.MILLISECONDS)) {
                    continue;
                }
                if (link != l) {
                    l.window.release();
                    continue;
                }
                long wait = e.key() < backlogEnd ? drainRate.take(System.nanoTime()) : 0;
                if (wait > 0) {
                    l.window.release();
                    LockSupport.parkNanos(Math.min(wait, TimeUnit.MILLISECONDS.toNanos(200)));
                    continue;
                }
                try {
                    if (convention != null) {
                        convention.forward(sender(l), e.topic(), e.payload());
                        l.window.release();
                        store.remove(e.key());
                        published.incrementAndGet();
                    } else if (config.qos() == 0) {
                        // Nothing acknowledges QoS 0: a message handed to the client is as sent as it gets.
                        client.publish(e.topic(), message(e.payload(), 0, false));
                        l.window.release();
                        store.remove(e.key());
                        published.incrementAndGet();
                    } else {
                        client.publish(e.topic(), message(e.payload(), config.qos(), false), null,
                                acknowledged(l, e.key()));
                    }
                    cursor = e.key() + 1;
                } catch (MqttException ex) {
                    l.window.release();
                    LOG.debug("MQTT publish refused by the client: {}", ex.getMessage());
                    awaitWork();
                }
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException ex) {
                LOG.error("the MQTT sender failed; it goes on with the next message", ex);
            }
        }
    }

    /** Lets the convention publish its births and control messages; false when the client refused (wait, try again). */
    private boolean control(Link l, boolean newConnection) throws InterruptedException {
        try {
            convention.control(sender(l), newConnection);
            return true;
        } catch (MqttException ex) {
            LOG.debug("MQTT publish refused by the client: {}", ex.getMessage());
            awaitWork();
            return false;
        }
    }

    /**
     * Publishes on connection {@code l} only: once it is gone the client refuses. A QoS 0 message
     * (Sparkplug's births and data) is sent once the client takes it, as the bridge's own QoS 0
     * messages are: nothing acknowledges it, and the client writes what it took in order, so births
     * still go before the data queued after them; a connection that breaks loses what the client
     * held unwritten, as at QoS 0 it would anyway. Other QoS return once the broker took the message.
     */
    private MqttConvention.Sender sender(Link l) {
        return (topic, payload, qos, retained) -> {
            if (link != l) {
                throw new MqttException(org.eclipse.paho.mqttv5.client.MqttClientException.REASON_CODE_CLIENT_NOT_CONNECTED);
            }
            IMqttToken sent = client.publish(topic, message(payload, qos, retained));
            if (qos > 0) {
                sent.waitForCompletion(TimeUnit.SECONDS.toMillis(CONNECT_TIMEOUT_S));
            }
        };
    }

    private MqttActionListener acknowledged(Link l, long key) {
        return new MqttActionListener() {
            @Override
            public void onSuccess(IMqttToken token) {
                store.remove(key);
                published.incrementAndGet();
                l.window.release();
                wake.release();
            }

            @Override
            public void onFailure(IMqttToken token, Throwable cause) {
                l.window.release();
                if (link == l && client.isConnected()) {
                    // The broker answered and refused this message: sending it again would be refused too.
                    store.remove(key);
                    long n = refused.incrementAndGet();
                    LOG.warn("the MQTT broker refused a message ({}); {} refused so far",
                            cause == null ? "no reason given" : cause.getMessage(), n);
                }
                wake.release();
            }
        };
    }

    /** For retained messages: they stay in {@link #retained} and are sent again on the next connect anyway. */
    private MqttActionListener released(Link l) {
        return new MqttActionListener() {
            @Override
            public void onSuccess(IMqttToken token) {
                l.window.release();
                wake.release();
            }

            @Override
            public void onFailure(IMqttToken token, Throwable cause) {
                l.window.release();
                wake.release();
            }
        };
    }

    private void awaitWork() throws InterruptedException {
        if (wake.tryAcquire(200, TimeUnit.MILLISECONDS)) {
            wake.drainPermits();
        }
    }

    /**
     * Stops: waits up to {@code drain} for the queue to empty while connected, publishes the
     * retained {@code offline}, disconnects. What is still queued stays in the store for the next start.
     */
    void close(Duration drain) {
        ForwardStore.awaitSent(() -> {
            wake.release();
            return link != null && (store.size() > 0 || !changedRetained.isEmpty());
        }, drain);
        running = false;
        wake.release();
        connector.shutdownNow();
        Link l = link;
        link = null;
        try {
            sender.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            if (l != null && client.isConnected() && convention != null) {
                // MQTT 5's "disconnect with will message": the broker publishes the convention's will.
                client.disconnect(2000, null, null, DISCONNECT_WITH_WILL, new MqttProperties()).waitForCompletion(3000);
            } else if (l != null && client.isConnected()) {
                client.publish(topics.status(), message(Payloads.text(OFFLINE), config.qos(), true))
                        .waitForCompletion(2000);
                client.disconnect(2000).waitForCompletion(3000);
            }
        } catch (MqttException e) {
            LOG.warn("the MQTT bridge did not disconnect cleanly: {}", e.getMessage());
        }
        try {
            client.close(true);
        } catch (MqttException e) {
            LOG.debug("closing the MQTT client: {}", e.getMessage());
        }
        if (store.size() > 0) {
            LOG.info("{} messages stay in the store-and-forward file for the next start", store.size());
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(2));
    }

    private static MqttMessage message(byte[] payload, int qos, boolean retain) {
        MqttMessage m = new MqttMessage(payload, qos, retain, new MqttProperties());
        return m;
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private final class Callback extends MqttCallbackAdapter {
        @Override
        public void disconnected(MqttDisconnectResponse response) {
            if (!running) {
                return;
            }
            link = null;
            LOG.warn("lost the MQTT broker {}: {}; reconnecting, {} messages wait", config.serverUri(),
                    response.getException() != null ? response.getException().getMessage() : response.getReasonString(),
                    store.size());
            try {
                connector.execute(MqttPublisher.this::scheduleConnect);
            } catch (RejectedExecutionException e) {
                // closing
            }
        }

        @Override
        public void messageArrived(String topic, MqttMessage message) {
            if (convention != null) {
                convention.arrived(topic, message.getPayload());
                wake.release();
            }
        }

        @Override
        public void mqttErrorOccurred(MqttException exception) {
            LOG.warn("MQTT error: {}", exception.getMessage());
        }
    }
}
