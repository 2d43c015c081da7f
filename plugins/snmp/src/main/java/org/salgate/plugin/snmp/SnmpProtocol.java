package org.salgate.plugin.snmp;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.salgate.model.Value;
import org.salgate.plugin.spi.ChannelRead;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.PushSink;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.ProtocolConfig;
import org.salgate.sensorml.SensorDescription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snmp4j.CommandResponderEvent;
import org.snmp4j.CommunityTarget;
import org.snmp4j.MessageDispatcher;
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.PDU;
import org.snmp4j.ScopedPDU;
import org.snmp4j.Snmp;
import org.snmp4j.Target;
import org.snmp4j.UserTarget;
import org.snmp4j.event.ResponseEvent;
import org.snmp4j.mp.MPv2c;
import org.snmp4j.mp.MPv3;
import org.snmp4j.mp.SnmpConstants;
import org.snmp4j.mp.StatusInformation;
import org.snmp4j.security.AuthSHA;
import org.snmp4j.security.PrivAES128;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.security.SecurityModel;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.security.USM;
import org.snmp4j.security.UsmUser;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.VariableBinding;
import org.snmp4j.transport.DefaultUdpTransportMapping;

/**
 * One SNMP agent (a device) over UDP: its polled channels are read in GET requests, one per read
 * batch (split at {@code max-oids-per-request}), and its trap channels are set by the traps and
 * informs it sends to {@code trap-port} on the loopback interface.
 *
 * <p>UDP has no connection: {@link #connect()} opens the local socket and asks the device for
 * sysUpTime.0, so a device that does not answer (or refuses the credentials) is reported
 * disconnected, with why, before any read. A GET left unanswered after {@code retries} resends of
 * {@code timeout-ms} each means the device is gone: the protocol throws
 * {@link SensorDisconnectedException} and the agent's lane reconnects with its backoff, answering
 * reads at once meanwhile. An OID the device does not have fails that channel alone.
 */
final class SnmpProtocol implements SensorProtocol {

    private static final Logger log = LoggerFactory.getLogger(SnmpProtocol.class);
    /** sysUpTime.0: every SNMP agent has it; asked when connecting. */
    static final OID SYS_UP_TIME = new OID("1.3.6.1.2.1.1.3.0");

    private final String device;
    private final SnmpSettings settings;
    private final UdpAddress address;
    private final Map<String, SnmpChannel> channels = new LinkedHashMap<>();
    private final PushSink sink;
    private Snmp session;
    private Snmp trapListener;

    /**
     * @throws IllegalArgumentException naming the first channel that is wrong
     * @throws PluginException when the trap port cannot be opened
     */
    SnmpProtocol(ProtocolConfig config, SnmpSettings settings, String device, InetAddress host, int port,
                 PushSink sink) throws PluginException {
        this.device = device;
        this.settings = settings;
        this.address = new UdpAddress(host, port);
        this.sink = sink;
        boolean traps = false;
        for (ChannelConfig c : config.channels()) {
            SnmpChannel channel = SnmpChannel.of(c);
            channels.put(c.name(), channel);
            traps |= channel.pushed();
        }
        if (traps && settings.trapPort() == 0) {
            throw new IllegalArgumentException("SNMP protocol " + config.name() + " has trap-oid channels but no"
                    + " parameter trap-port, the loopback UDP port the device sends its traps to (such as 1162)");
        }
        if (settings.trapPort() != 0) {
            trapListener = listenForTraps();
        }
    }

    /** A session of its own, with its own USM: protocols share no users or engine times. */
    private Snmp newSession(DefaultUdpTransportMapping transport) {
        MessageDispatcher dispatcher = new MessageDispatcherImpl();
        if (settings.version().equals("3")) {
            // snmp4j keeps its security protocols in one table per JVM; adding one twice keeps one
            SecurityProtocols protocols = SecurityProtocols.getInstance();
            protocols.addAuthenticationProtocol(new AuthSHA());
            protocols.addPrivacyProtocol(new PrivAES128());
            USM usm = new USM(protocols, new OctetString(MPv3.createLocalEngineID()), 0);
            usm.addUser(new OctetString(settings.user()), new UsmUser(new OctetString(settings.user()),
                    settings.authPassword() == null ? null : AuthSHA.ID,
                    settings.authPassword() == null ? null : new OctetString(settings.authPassword()),
                    settings.privPassword() == null ? null : PrivAES128.ID,
                    settings.privPassword() == null ? null : new OctetString(settings.privPassword())));
            dispatcher.addMessageProcessingModel(new MPv3(usm));
        } else {
            dispatcher.addMessageProcessingModel(new MPv2c());
        }
        return new Snmp(dispatcher, transport);
    }

    private Snmp listenForTraps() throws PluginException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try {
            Snmp listener = newSession(new DefaultUdpTransportMapping(new UdpAddress(loopback, settings.trapPort())));
            listener.addCommandResponder(this::received);
            listener.listen();
            return listener;
        } catch (IOException e) {
            throw new PluginException("cannot receive SNMP traps on " + loopback.getHostAddress() + ":"
                    + settings.trapPort() + " (parameter trap-port): " + e.getMessage()
                    + "; choose a port no other program or protocol uses", e);
        }
    }

    @Override
    public synchronized void connect() throws Exception {
        disconnect();
        try {
            session = newSession(new DefaultUdpTransportMapping());
            session.listen();
        } catch (IOException e) {
            disconnect();
            throw new SensorDisconnectedException("cannot open a UDP socket for SNMP device " + device + ": "
                    + e.getMessage(), e);
        }
        PDU probe = request();
        probe.add(new VariableBinding(SYS_UP_TIME));
        exchange(probe);
    }

    @Override
    public synchronized void disconnect() {
        if (session != null) {
            try {
                session.close();
            } catch (IOException e) {
                log.debug("closing the SNMP session of {}", device, e);
            }
            session = null;
        }
    }

    @Override
    public synchronized List<ChannelValue> read(List<ChannelRead> reads) throws Exception {
        List<SnmpChannel> batch = new ArrayList<>(reads.size());
        for (ChannelRead r : reads) {
            batch.add(channel(r.channel()));
        }
        List<ChannelValue> values = new ArrayList<>(batch.size());
        for (int from = 0; from < batch.size(); from += settings.maxPerRequest()) {
            List<SnmpChannel> part = batch.subList(from, Math.min(batch.size(), from + settings.maxPerRequest()));
            PDU get = request();
            for (SnmpChannel c : part) {
                get.add(new VariableBinding(c.oid()));
            }
            PDU answer = exchange(get);
            if (answer.getErrorStatus() != PDU.noError) {
                // a v2c device answers a GET with errors only for the whole request (tooBig, genErr...)
                String why = "the device refused the GET: " + answer.getErrorStatusText()
                        + (answer.getErrorIndex() > 0 && answer.getErrorIndex() <= part.size()
                        ? " at OID " + part.get(answer.getErrorIndex() - 1).oid() : "");
                part.forEach(c -> values.add(ChannelValue.failed(why)));
                continue;
            }
            for (int i = 0; i < part.size(); i++) {
                SnmpChannel c = part.get(i);
                VariableBinding vb = i < answer.size() ? answer.get(i) : null;
                values.add(vb == null || !vb.getOid().equals(c.oid())
                        ? ChannelValue.failed("the device's answer has no value for OID " + c.oid())
                        : SnmpValues.of(c.oid().toDottedString(), vb.getVariable()));
            }
        }
        return values;
    }

    @Override
    public boolean pushes(ChannelConfig channel) {
        SnmpChannel c = channels.get(channel.name());
        return c != null && c.pushed();
    }

    @Override
    public List<SensorDescription> sensors() {
        return List.of();
    }

    @Override
    public List<CommandDescription> commands(String sensorId) {
        return List.of();
    }

    @Override
    public Value execute(String sensorId, String commandId, Map<String, String> arguments) throws Exception {
        throw new PluginException("an SNMP protocol has no sensors of its own: its channels are read as channels");
    }

    @Override
    public void close() {
        disconnect();
        synchronized (this) {
            if (trapListener != null) {
                try {
                    trapListener.close();
                } catch (IOException e) {
                    log.debug("closing the SNMP trap listener of {}", device, e);
                }
                trapListener = null;
            }
        }
    }

    private PDU request() {
        PDU pdu = settings.version().equals("3") ? new ScopedPDU() : new PDU();
        pdu.setType(PDU.GET);
        return pdu;
    }

    private Target<UdpAddress> target() {
        Target<UdpAddress> target;
        if (settings.version().equals("3")) {
            UserTarget<UdpAddress> user = new UserTarget<>();
            user.setSecurityName(new OctetString(settings.user()));
            user.setSecurityLevel(securityLevel());
            user.setSecurityModel(SecurityModel.SECURITY_MODEL_USM);
            user.setVersion(SnmpConstants.version3);
            target = user;
        } else {
            CommunityTarget<UdpAddress> community = new CommunityTarget<>();
            community.setCommunity(new OctetString(settings.community()));
            community.setVersion(SnmpConstants.version2c);
            target = community;
        }
        target.setAddress(address);
        target.setTimeout(settings.timeoutMs());
        target.setRetries(settings.retries());
        return target;
    }

    private int securityLevel() {
        return settings.privPassword() != null ? SecurityLevel.AUTH_PRIV
                : settings.authPassword() != null ? SecurityLevel.AUTH_NOPRIV : SecurityLevel.NOAUTH_NOPRIV;
    }

    /** Sends {@code pdu} and returns the device's answer. */
    private PDU exchange(PDU pdu) throws Exception {
        if (session == null) {
            throw new SensorDisconnectedException("SNMP device " + device + " is not connected");
        }
        ResponseEvent<UdpAddress> event;
        try {
            event = session.send(pdu, target());
        } catch (IOException e) {
            throw new SensorDisconnectedException("cannot send to SNMP device " + device + ": " + e.getMessage(), e);
        }
        if (event.getError() != null) {
            throw new SensorDisconnectedException("SNMP device " + device + ": " + event.getError().getMessage(),
                    event.getError());
        }
        PDU answer = event.getResponse();
        if (answer == null) {
            throw new SensorDisconnectedException("SNMP device " + device + " did not answer ("
                    + (settings.retries() + 1) + " tries of timeout-ms " + settings.timeoutMs() + ")"
                    + (settings.version().equals("2c") ? "; a v2c device also stays silent when the community is"
                    + " wrong" : "; an SNMPv3 device also seems silent when the user or a password is wrong"
                    + " (check user, auth-password-file and priv-password-file against the device's user)"));
        }
        if (answer.getType() == PDU.REPORT) {
            throw new SensorDisconnectedException("SNMP device " + device + " refused the request: "
                    + report(answer));
        }
        return answer;
    }

    /** What an SNMPv3 report PDU says, in words. */
    private String report(PDU report) {
        OID what = report.size() == 0 ? null : report.get(0).getOid();
        if (what == null) {
            return "an empty report";
        }
        if (what.startsWith(SnmpConstants.usmStatsUnknownUserNames)) {
            return "unknown user '" + settings.user() + "' (parameter user)";
        }
        if (what.startsWith(SnmpConstants.usmStatsWrongDigests)) {
            return "wrong authentication password for user '" + settings.user() + "' (auth-password-file)";
        }
        if (what.startsWith(SnmpConstants.usmStatsDecryptionErrors)) {
            return "wrong privacy password for user '" + settings.user() + "' (priv-password-file)";
        }
        if (what.startsWith(SnmpConstants.usmStatsUnsupportedSecLevels)) {
            return "user '" + settings.user() + "' does not take this security level: give both password files"
                    + " for authPriv, only auth-password-file for authNoPriv, as the device's user is set up";
        }
        return "report " + what;
    }

    /** A trap or inform: each variable a trap channel names is pushed; an inform is answered. */
    private void received(CommandResponderEvent<?> event) {
        PDU pdu = event.getPDU();
        if (pdu == null || (pdu.getType() != PDU.TRAP && pdu.getType() != PDU.INFORM)) {
            return;
        }
        if (!trusted(event)) {
            log.warn("SNMP protocol of {} dropped a {} from {}: {}", device, PDU.getTypeString(pdu.getType()),
                    event.getPeerAddress(), settings.version().equals("3")
                            ? "below the protocol's security level" : "wrong community");
            return;
        }
        event.setProcessed(true);
        for (VariableBinding vb : pdu.getVariableBindings()) {
            channels.values().stream().filter(c -> c.pushed() && c.oid().equals(vb.getOid()))
                    .forEach(c -> sink.push(c.name(), SnmpValues.of(c.oid().toDottedString(), vb.getVariable())));
        }
        if (pdu.getType() == PDU.INFORM) {
            PDU response = (PDU) pdu.clone();
            response.setType(PDU.RESPONSE);
            response.setErrorStatus(PDU.noError);
            response.setErrorIndex(0);
            try {
                event.getMessageDispatcher().returnResponsePdu(event.getMessageProcessingModel(),
                        event.getSecurityModel(), event.getSecurityName(), event.getSecurityLevel(), response,
                        event.getMaxSizeResponsePDU(), event.getStateReference(), new StatusInformation());
            } catch (Exception e) {
                log.warn("SNMP protocol of {} could not answer an inform from {}: {}", device,
                        event.getPeerAddress(), e.toString());
            }
        }
    }

    /** Whether a trap carries the protocol's community (v2c) or its user at its security level (v3). */
    private boolean trusted(CommandResponderEvent<?> event) {
        byte[] name = event.getSecurityName();
        if (settings.version().equals("3")) {
            return event.getSecurityLevel() >= securityLevel()
                    && MessageDigest.isEqual(name, settings.user().getBytes(StandardCharsets.UTF_8));
        }
        return MessageDigest.isEqual(name, settings.community().getBytes(StandardCharsets.UTF_8));
    }

    private SnmpChannel channel(ChannelConfig config) throws PluginException {
        SnmpChannel c = channels.get(config.name());
        if (c == null || c.pushed()) {
            throw new PluginException("this SNMP protocol has no polled channel " + config.name());
        }
        return c;
    }
}
