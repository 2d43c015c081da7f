package org.salgate.plugin.snmp;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.salgate.plugin.spi.ChannelRead;
import org.salgate.plugin.spi.ChannelValue;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.PushSink;
import org.salgate.plugin.spi.SensorDisconnectedException;
import org.salgate.plugin.spi.DeviceProtocol;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ProtocolConfig;
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
import org.snmp4j.event.CounterEvent;
import org.snmp4j.event.CounterListener;
import org.snmp4j.event.ResponseEvent;
import org.snmp4j.mp.MPv2c;
import org.snmp4j.mp.CounterSupport;
import org.snmp4j.mp.MPv3;
import org.snmp4j.mp.PduHandle;
import org.snmp4j.mp.SnmpConstants;
import org.snmp4j.mp.StatusInformation;
import org.snmp4j.security.AuthSHA;
import org.snmp4j.security.PrivAES128;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.security.SecurityModel;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.security.USM;
import org.snmp4j.security.UsmUser;
import org.snmp4j.smi.Address;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.Variable;
import org.snmp4j.smi.VariableBinding;
import org.snmp4j.transport.DefaultUdpTransportMapping;
import org.snmp4j.util.DefaultPDUFactory;
import org.snmp4j.util.TableEvent;
import org.snmp4j.util.TableUtils;

/**
 * One SNMP agent (a device) over UDP: its polled channels are read in GET requests, one per read
 * batch (split at {@code max-oids-per-request}), its trap channels are set by the traps and
 * informs it sends to {@code trap-port} (on {@code trap-address}, loopback by default), and the
 * table {@code walk} names, walked with GETBULK, gives channels of their own ({@link #discover()}).
 *
 * <p>UDP has no connection: {@link #connect()} opens the local socket and asks the device for
 * sysUpTime.0, so a device that does not answer (or refuses the credentials) is reported
 * disconnected, with why, before any read. A GET left unanswered after {@code retries} resends of
 * {@code timeout-ms} each means the device is gone: the protocol throws
 * {@link SensorDisconnectedException} and the agent's lane reconnects with its backoff, answering
 * reads at once meanwhile; a v3 user the device refused is named with the device's report. An OID
 * the device does not have fails that channel alone.
 */
final class SnmpProtocol implements DeviceProtocol {

    private static final Logger log = LoggerFactory.getLogger(SnmpProtocol.class);
    /** sysUpTime.0: every SNMP agent has it; asked when connecting. */
    static final OID SYS_UP_TIME = new OID("1.3.6.1.2.1.1.3.0");

    /** GETBULK max-repetitions of a table walk: rows asked for per request. */
    private static final int WALK_ROWS_PER_REQUEST = 10;

    private final String device;
    private final SnmpSettings settings;
    private final UdpAddress address;
    private final Map<String, SnmpChannel> channels = new LinkedHashMap<>();
    /** The channels the last walk found (a configured channel of the same name is in {@link #channels}). */
    private volatile Map<String, SnmpChannel> discovered = Map.of();
    private final PushSink sink;
    /** The first OID of the last report PDU the device sent to the session (set on snmp4j's thread). */
    private volatile OID lastReport;
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
                    + " parameter trap-port, the UDP port the device sends its traps to (such as 1162)");
        }
        if (settings.trapPort() != 0) {
            trapListener = listenForTraps();
        }
    }

    /**
     * A session of its own, with its own USM: protocols share no users or engine times.
     *
     * @param usmCounters told of each message USM refused (wrong digest, unknown user...), or null
     */
    private Snmp newSession(DefaultUdpTransportMapping transport, CounterListener usmCounters) {
        MessageDispatcher dispatcher = new MessageDispatcherImpl();
        if (settings.version().equals("3")) {
            // snmp4j keeps its security protocols in one table per JVM; adding one twice keeps one
            SecurityProtocols protocols = SecurityProtocols.getInstance();
            protocols.addAuthenticationProtocol(new AuthSHA());
            protocols.addPrivacyProtocol(new PrivAES128());
            CounterSupport counters = new CounterSupport();
            if (usmCounters != null) {
                counters.addCounterListener(usmCounters);
            }
            USM usm = new USM(protocols, new OctetString(MPv3.createLocalEngineID()), 0, counters);
            usm.addUser(new OctetString(settings.user()), new UsmUser(new OctetString(settings.user()),
                    settings.authPassword() == null ? null : AuthSHA.ID,
                    settings.authPassword() == null ? null : new OctetString(settings.authPassword()),
                    settings.privPassword() == null ? null : PrivAES128.ID,
                    settings.privPassword() == null ? null : new OctetString(settings.privPassword())));
            dispatcher.addMessageProcessingModel(new MPv3(usm));
        } else {
            dispatcher.addMessageProcessingModel(new MPv2c());
        }
        Snmp snmp = new Snmp(dispatcher, transport);
        // snmp4j drops an unauthenticated report (such as usmStatsWrongDigests) and lets the request time
        // out, as RFC 3412 asks; the report is noted, so that the timeout can say why the device refused
        Snmp.ReportHandler standard = snmp.getReportHandler();
        snmp.setReportHandler(new Snmp.ReportHandler() {
            @Override
            public <A extends Address> void processReport(PduHandle handle, CommandResponderEvent<A> event) {
                PDU report = event.getPDU();
                if (report != null && report.size() > 0) {
                    lastReport = report.get(0).getOid();
                }
                standard.processReport(handle, event);
            }
        });
        return snmp;
    }

    private Snmp listenForTraps() throws PluginException {
        InetAddress on = settings.trapAddress();
        try {
            Snmp listener = newSession(new DefaultUdpTransportMapping(new UdpAddress(on, settings.trapPort())),
                    this::refusedNotification);
            listener.addCommandResponder(this::received);
            listener.listen();
            return listener;
        } catch (IOException e) {
            throw new PluginException("cannot receive SNMP traps on " + on.getHostAddress() + ":"
                    + settings.trapPort() + " (parameters trap-address and trap-port): " + e.getMessage()
                    + "; choose a port no other program or protocol uses, on an address of this host", e);
        }
    }

    @Override
    public synchronized void connect() throws Exception {
        disconnect();
        try {
            session = newSession(new DefaultUdpTransportMapping(), null);
            session.listen();
        } catch (IOException e) {
            disconnect();
            throw new SensorDisconnectedException("cannot open a UDP socket for SNMP device " + device + ": "
                    + e.getMessage(), e);
        }
        PDU probe = request();
        probe.add(new VariableBinding(SYS_UP_TIME));
        try {
            exchange(probe, target());
        } catch (SensorDisconnectedException e) {
            String why = settings.privPassword() != null && lastReport != null ? privacyRefused() : null;
            if (why != null) {
                throw new SensorDisconnectedException(why);
            }
            throw e;
        }
    }

    /**
     * Why a v3 device that answered the engine discovery is silent to an authPriv request, when a
     * wrong privacy password is why: net-snmp drops a request it cannot decrypt without a report, so
     * the user's request is sent again at authNoPriv (sysUpTime.0); an answer, even a refusal of the
     * object, shows the authentication password right and the privacy one wrong. Null when that
     * request is not answered either.
     */
    private String privacyRefused() {
        UserTarget<UdpAddress> authOnly = (UserTarget<UdpAddress>) target();
        authOnly.setSecurityLevel(SecurityLevel.AUTH_NOPRIV);
        PDU probe = request();
        probe.add(new VariableBinding(SYS_UP_TIME));
        try {
            PDU answer = exchange(probe, authOnly);
            log.debug("SNMP device {} answered user {} at authNoPriv: {}", device, settings.user(), answer);
            return refusedUser("wrong privacy password: the device answered the user's authenticated request"
                    + " (authNoPriv) and dropped the encrypted one; check priv-password-file, and that the user's"
                    + " privacy protocol is AES-128");
        } catch (SensorDisconnectedException e) {
            return e.getMessage().contains(" refused user ") ? e.getMessage() : null;
        } catch (Exception e) {
            return null;
        }
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
            PDU answer = exchange(get, target());
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

    /**
     * The channels of the table parameter {@code walk} names ({@link SnmpWalk}): the table walked
     * with GETBULK ({@code walk-max-rows} rows at most), one channel per row and column wanted. None
     * without {@code walk}.
     */
    @Override
    public synchronized List<ChannelConfig> discover() throws Exception {
        SnmpWalk walk = settings.walk();
        if (walk == null) {
            return List.of();
        }
        if (session == null) {
            throw new SensorDisconnectedException("SNMP device " + device + " is not connected");
        }
        DefaultPDUFactory bulk = new DefaultPDUFactory(PDU.GETBULK);
        TableUtils tables = new TableUtils(session, bulk);
        tables.setMaxNumRowsPerPDU(WALK_ROWS_PER_REQUEST);
        tables.setRowLimit(walk.maxRows());
        OID[] walked = walk.walked();
        lastReport = null;
        List<SnmpWalk.Row> rows = new ArrayList<>();
        for (TableEvent e : tables.getTable(target(), walked, null, null)) {
            switch (e.getStatus()) {
                case TableEvent.STATUS_OK -> {
                    Map<OID, Variable> values = new HashMap<>();
                    VariableBinding[] columns = e.getColumns();
                    for (int i = 0; i < columns.length && i < walked.length; i++) {
                        if (columns[i] != null) {
                            values.put(walked[i], columns[i].getVariable());
                        }
                    }
                    rows.add(new SnmpWalk.Row(e.getIndex(), values));
                }
                case TableEvent.STATUS_ROW_LIMIT_REACHED -> log.warn("SNMP device {}: the walk of {} stopped at"
                        + " {} rows (parameter walk-max-rows); the rows beyond have no channels", device,
                        walk.entry(), walk.maxRows());
                case TableEvent.STATUS_TIMEOUT -> throw new SensorDisconnectedException(silent());
                case TableEvent.STATUS_REPORT -> throw new SensorDisconnectedException(
                        refused(e.getReportPDU().get(0).getOid()));
                default -> throw new PluginException("SNMP device " + device + ": the walk of " + walk.entry()
                        + " failed: " + e.getErrorMessage());
            }
        }
        List<ChannelConfig> found = walk.channels(rows);
        Map<String, SnmpChannel> byName = new HashMap<>();
        for (ChannelConfig c : found) {
            byName.put(c.name(), SnmpChannel.of(c));
        }
        discovered = byName;
        return found;
    }

    @Override
    public boolean pushes(ChannelConfig channel) {
        SnmpChannel c = channels.get(channel.name());
        return c != null && c.pushed();
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

    /** Sends {@code pdu} to {@code target} and returns the device's answer. */
    private PDU exchange(PDU pdu, Target<UdpAddress> target) throws Exception {
        if (session == null) {
            throw new SensorDisconnectedException("SNMP device " + device + " is not connected");
        }
        ResponseEvent<UdpAddress> event;
        lastReport = null;
        try {
            event = session.send(pdu, target);
        } catch (IOException e) {
            throw new SensorDisconnectedException("cannot send to SNMP device " + device + ": " + e.getMessage(), e);
        }
        if (event.getError() != null) {
            throw new SensorDisconnectedException("SNMP device " + device + ": " + event.getError().getMessage(),
                    event.getError());
        }
        PDU answer = event.getResponse();
        if (answer == null) {
            throw new SensorDisconnectedException(silent());
        }
        if (answer.getType() == PDU.REPORT) {
            throw new SensorDisconnectedException(answer.size() == 0
                    ? "SNMP device " + device + " refused the request with an empty report" : refused(answer.get(0).getOid()));
        }
        return answer;
    }

    /** Why the device did not answer a request in time, as far as the reports it sent meanwhile say. */
    private String silent() {
        OID heard = lastReport;
        if (heard != null && refusal(heard) != null) {
            return refused(heard);
        }
        String tries = " (" + (settings.retries() + 1) + " tries of timeout-ms " + settings.timeoutMs() + ")";
        if (settings.version().equals("2c")) {
            return "SNMP device " + device + " did not answer" + tries + "; a v2c device also stays silent when the"
                    + " community is wrong (community-file)";
        }
        if (heard != null) {
            return "SNMP device " + device + " answered the engine discovery but not user '" + settings.user() + "'"
                    + tries + ": check the user's passwords (auth-password-file, priv-password-file) and that its"
                    + " protocols are SHA and AES-128";
        }
        return "SNMP device " + device + " did not answer" + tries;
    }

    /** What a report PDU the device answered with, whose first variable is {@code what}, says in words. */
    private String refused(OID what) {
        String why = refusal(what);
        if (why != null) {
            return refusedUser(why);
        }
        if (what.startsWith(SnmpConstants.usmStatsNotInTimeWindows)) {
            return refusedUser("the request stayed outside the device's time window (usmStatsNotInTimeWindows)"
                    + " after resynchronising; the device's engine boots or time may be wrong");
        }
        return "SNMP device " + device + " refused the request: report " + what;
    }

    private String refusedUser(String why) {
        return "SNMP device " + device + " refused user '" + settings.user() + "': " + why;
    }

    /**
     * What a report's OID means for the user, or null when it refuses nothing by itself (the engine
     * discovery, a time window to resynchronise with).
     */
    private static String refusal(OID what) {
        if (what.startsWith(SnmpConstants.usmStatsUnknownUserNames)) {
            return "unknown user (usmStatsUnknownUserNames); check parameter user against the device's users";
        }
        if (what.startsWith(SnmpConstants.usmStatsWrongDigests)) {
            return "wrong authentication password (usmStatsWrongDigests); check auth-password-file, and that the"
                    + " user's authentication protocol is SHA";
        }
        if (what.startsWith(SnmpConstants.usmStatsDecryptionErrors)) {
            return "wrong privacy password (usmStatsDecryptionErrors); check priv-password-file, and that the"
                    + " user's privacy protocol is AES-128";
        }
        if (what.startsWith(SnmpConstants.usmStatsUnsupportedSecLevels)) {
            return "the user does not take this security level (usmStatsUnsupportedSecLevels): give both password"
                    + " files for authPriv, only auth-password-file for authNoPriv, as the device's user is set up";
        }
        return null;
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

    /** Logs a v3 trap or inform the trap port's USM refused (SNMP4J drops it before {@link #received}). */
    private void refusedNotification(CounterEvent event) {
        String why = refusal(event.getOid());
        if (why != null) {
            log.warn("SNMP protocol of {} dropped a v3 trap or inform on its trap port: {}", device, why);
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

    /** A configured channel, one the last walk found, or one a walk found before (read as it says). */
    private SnmpChannel channel(ChannelConfig config) throws PluginException {
        SnmpChannel c = channels.get(config.name());
        if (c == null) {
            c = discovered.get(config.name());
        }
        if (c == null) {
            try {
                c = SnmpChannel.of(config);
            } catch (IllegalArgumentException e) {
                throw new PluginException("this SNMP protocol has no polled channel " + config.name(), e);
            }
        }
        if (c.pushed()) {
            throw new PluginException("this SNMP protocol has no polled channel " + config.name());
        }
        return c;
    }
}
