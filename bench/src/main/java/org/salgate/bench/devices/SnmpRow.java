package org.salgate.bench.devices;

import java.io.IOException;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.salgate.agent.Agent;
import org.salgate.client.SalClient;
import org.salgate.model.Reading;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.snmp4j.CommunityTarget;
import org.snmp4j.PDU;
import org.snmp4j.Snmp;
import org.snmp4j.event.ResponseEvent;
import org.snmp4j.mp.SnmpConstants;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.smi.VariableBinding;
import org.snmp4j.transport.DefaultUdpTransportMapping;

/**
 * {@code bench devices --rows snmp}: 100 OIDs of one SNMP agent read as one batch, through salgate's
 * agent and by SNMP4J alone, against the same Debian {@code snmpd} on a loopback UDP port, in the
 * same run. The OIDs are the first {@value #OIDS} instances under mib-2 (system, sysORTable,
 * interfaces), consecutive in the agent's order, so that one GETBULK of {@value #OIDS} repetitions
 * from mib-2 returns exactly them.
 *
 * <p>Through the agent: protocol {@code snmp0} with a channel per OID and
 * {@code max-oids-per-request} {@value #OIDS}; one poll is {@value #OIDS} reads sent together by
 * one client, the next when all are answered, back to back. SNMP4J alone, back to back on one
 * session for as long: the same GET of the {@value #OIDS} OIDs (what the driver sends for a batch of
 * configured channels), and the GETBULK. The side that goes first alternates between repetitions.
 * snmpd's own counter of GET requests (snmpInGetRequests) says how many GETs a poll through the
 * agent made.
 */
final class SnmpRow {

    static final String CELL = "snmp 1x100";
    private static final int OIDS = 100;
    private static final OID MIB_2 = new OID("1.3.6.1.2.1");
    private static final OID SNMP_IN_GET_REQUESTS = new OID("1.3.6.1.2.1.11.15.0");
    private static final String COMMUNITY = "bench-community";
    private static final int TIMEOUT_MS = 2000;

    private final DevicesConfig config;
    private final PrintStream console;

    private SnmpRow(DevicesConfig config, PrintStream console) {
        this.config = config;
        this.console = console;
    }

    /** Measures the row in each repetition into {@code measurements}; what cannot be measured goes to {@code problems}. */
    static void run(DevicesConfig config, PrintStream console, List<DevicesResult.Measurement> measurements,
                    List<String> problems) {
        SnmpRow row = new SnmpRow(config, console);
        try (Snmpd snmpd = Snmpd.start(Files.createTempDirectory("salgate-bench-snmpd"));
             Snmp snmp = new Snmp(new DefaultUdpTransportMapping())) {
            snmp.listen();
            CommunityTarget<UdpAddress> target = target(snmpd.port);
            List<OID> oids = row.firstOids(snmp, target);
            for (int rep = 1; rep <= config.reps(); rep++) {
                measurements.add(new DevicesResult.Measurement(CELL, rep, row.measure(rep, snmpd, snmp, target,
                        oids)));
            }
        } catch (IOException | RuntimeException | ExecutionException | TimeoutException e) {
            problems.add(CELL + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problems.add(CELL + ": interrupted");
        }
    }

    private Map<String, Double> measure(int rep, Snmpd snmpd, Snmp snmp, CommunityTarget<UdpAddress> target,
                                        List<OID> oids) throws IOException, InterruptedException,
            ExecutionException, TimeoutException {
        long nanos = config.pollDuration().toNanos();
        PDU get = new PDU();
        get.setType(PDU.GET);
        oids.forEach(o -> get.add(new VariableBinding(o)));
        PDU bulk = new PDU();
        bulk.setType(PDU.GETBULK);
        bulk.setMaxRepetitions(OIDS);
        bulk.setNonRepeaters(0);
        bulk.add(new VariableBinding(MIB_2));
        Map<String, Double> m = new LinkedHashMap<>();
        try (Agent agent = agent(snmpd, oids);
             SalClient client = SalClient.builder().host("127.0.0.1").port(agent.port()).clientName("bench-snmp")
                     .connect()) {
            pollFor(client, nanos / 10, null);
            alone(snmp, target, get, nanos / 10);
            alone(snmp, target, bulk, nanos / 10);
            boolean agentFirst = rep % 2 == 1;
            double[] aloneGet = agentFirst ? null : alone(snmp, target, get, nanos);
            double[] aloneBulk = agentFirst ? null : alone(snmp, target, bulk, nanos);
            long gets0 = counter(snmp, target);
            long[] counts = new long[3];
            double polls = pollFor(client, nanos, counts);
            long gets = counter(snmp, target) - gets0 - 1;
            if (agentFirst) {
                aloneGet = alone(snmp, target, get, nanos);
                aloneBulk = alone(snmp, target, bulk, nanos);
            }
            double seconds = counts[2] / 1e9;
            double perSecond = counts[0] / seconds;
            m.put("oids", (double) OIDS);
            m.put("agent_readings_per_s", perSecond);
            m.put("agent_polls_per_s", polls / seconds);
            m.put("agent_errors", (double) counts[1]);
            m.put("agent_gets_per_poll", gets / polls);
            m.put("snmp4j_get_readings_per_s", aloneGet[0]);
            m.put("snmp4j_getbulk_readings_per_s", aloneBulk[0]);
            m.put("ratio_to_snmp4j_get", perSecond / aloneGet[0]);
            m.put("ratio_to_snmp4j_getbulk", perSecond / aloneBulk[0]);
            console.printf(Locale.ROOT, "  rep %d  snmp 1x%d      agent %8.0f readings/s (%.2f GETs/poll)  snmp4j GET"
                    + " %8.0f  GETBULK %8.0f readings/s  ratio %.2f / %.2f%n", rep, OIDS, perSecond, gets / polls,
                    aloneGet[0], aloneBulk[0], perSecond / aloneGet[0], perSecond / aloneBulk[0]);
        }
        return m;
    }

    /** An agent reading snmpd as protocol {@code snmp0}: channel {@code o<i>} is the i-th OID. */
    private Agent agent(Snmpd snmpd, List<OID> oids) throws IOException {
        List<ChannelConfig> channels = new ArrayList<>();
        for (int i = 0; i < oids.size(); i++) {
            channels.add(ChannelConfig.read("o" + i, "", Map.of("oid", oids.get(i).toDottedString())));
        }
        ProtocolConfig protocol = new ProtocolConfig("snmp0", "snmp", "udp:127.0.0.1:" + snmpd.port,
                Map.of("community-file", snmpd.communityFile.toString(), "max-oids-per-request",
                        Integer.toString(OIDS), "timeout-ms", Integer.toString(TIMEOUT_MS)),
                List.of(), List.of(), channels);
        return Agent.builder().port(0).agentId("bench-snmp").platform(new PlatformConfig(List.of(protocol)))
                .deviceTargets(List.of("127.0.0.1:" + snmpd.port)).start();
    }

    /** Polls of every channel back to back for {@code nanos}: the polls made; counts {ok, errors, nanos}. */
    private static double pollFor(SalClient client, long nanos, long[] counts) throws InterruptedException,
            ExecutionException, TimeoutException {
        long start = System.nanoTime();
        long end = start + nanos;
        long polls = 0;
        long now;
        do {
            List<CompletableFuture<Reading>> reads = new ArrayList<>(OIDS);
            for (int i = 0; i < OIDS; i++) {
                reads.add(client.execute("snmp0.o" + i, "read", null));
            }
            CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            polls++;
            now = System.nanoTime();
            if (counts != null) {
                for (CompletableFuture<Reading> f : reads) {
                    counts[f.join().status() == Reading.Status.OK ? 0 : 1]++;
                }
            }
        } while (now < end);
        if (counts != null) {
            counts[2] = now - start;
        }
        return polls;
    }

    /** SNMP4J sending {@code pdu} back to back for {@code nanos}: {values received per second}. */
    private static double[] alone(Snmp snmp, CommunityTarget<UdpAddress> target, PDU pdu, long nanos)
            throws IOException {
        long start = System.nanoTime();
        long end = start + nanos;
        long values = 0;
        long now;
        do {
            values += answer(snmp, target, pdu).size();
            now = System.nanoTime();
        } while (now < end);
        return new double[] {values / ((now - start) / 1e9)};
    }

    /** The first {@value #OIDS} instances under mib-2, in snmpd's order (GETBULK from mib-2). */
    private List<OID> firstOids(Snmp snmp, CommunityTarget<UdpAddress> target) throws IOException {
        PDU bulk = new PDU();
        bulk.setType(PDU.GETBULK);
        bulk.setMaxRepetitions(OIDS);
        bulk.add(new VariableBinding(MIB_2));
        List<OID> oids = new ArrayList<>();
        for (VariableBinding vb : answer(snmp, target, bulk).getVariableBindings()) {
            if (!vb.getVariable().isException() && vb.getOid().startsWith(MIB_2)) {
                oids.add(vb.getOid());
            }
        }
        if (oids.size() != OIDS) {
            throw new IOException("snmpd gave " + oids.size() + " instances under mib-2 in one GETBULK, not " + OIDS);
        }
        return oids;
    }

    private static long counter(Snmp snmp, CommunityTarget<UdpAddress> target) throws IOException {
        PDU get = new PDU();
        get.setType(PDU.GET);
        get.add(new VariableBinding(SNMP_IN_GET_REQUESTS));
        return answer(snmp, target, get).get(0).getVariable().toLong();
    }

    private static PDU answer(Snmp snmp, CommunityTarget<UdpAddress> target, PDU pdu) throws IOException {
        ResponseEvent<UdpAddress> e = snmp.send(pdu, target);
        PDU answer = e.getResponse();
        if (answer == null || answer.getErrorStatus() != PDU.noError) {
            throw new IOException("snmpd did not answer SNMP4J's " + PDU.getTypeString(pdu.getType()) + ": "
                    + (answer == null ? "no answer in " + TIMEOUT_MS + " ms" : answer.getErrorStatusText()));
        }
        return answer;
    }

    private static CommunityTarget<UdpAddress> target(int port) {
        CommunityTarget<UdpAddress> t = new CommunityTarget<>(new UdpAddress(InetAddress.getLoopbackAddress(), port),
                new OctetString(COMMUNITY));
        t.setVersion(SnmpConstants.version2c);
        t.setTimeout(TIMEOUT_MS);
        t.setRetries(0);
        return t;
    }

    /** Debian's snmpd on a free loopback UDP port, its configuration and state in {@code dir}. */
    private static final class Snmpd implements AutoCloseable {
        private final Process process;
        private final int port;
        private final Path communityFile;
        private final Path dir;

        private Snmpd(Process process, int port, Path communityFile, Path dir) {
            this.process = process;
            this.port = port;
            this.communityFile = communityFile;
            this.dir = dir;
        }

        static Snmpd start(Path dir) throws IOException, InterruptedException {
            Files.createDirectories(dir.resolve("state"));
            Path conf = Files.writeString(dir.resolve("snmpd.conf"), "rocommunity " + COMMUNITY + " 127.0.0.1\n"
                    + "sysName bench-device\n");
            Path community = Files.writeString(dir.resolve("community"), COMMUNITY + "\n");
            int port;
            try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            ProcessBuilder b = new ProcessBuilder("snmpd", "-f", "-Lo", "-C", "-c", conf.toString(),
                    "udp:127.0.0.1:" + port).redirectErrorStream(true).redirectOutput(dir.resolve("snmpd.log").toFile());
            b.environment().put("SNMP_PERSISTENT_DIR", dir.resolve("state").toString());
            Process p;
            try {
                p = b.start();
            } catch (IOException e) {
                throw new IOException("cannot start snmpd (Debian package snmpd: apt-get install snmpd): "
                        + e.getMessage(), e);
            }
            Snmpd snmpd = new Snmpd(p, port, community, dir);
            try (Snmp probe = new Snmp(new DefaultUdpTransportMapping())) {
                probe.listen();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (true) {
                    try {
                        counter(probe, target(port));
                        return snmpd;
                    } catch (IOException e) {
                        if (!p.isAlive() || System.nanoTime() > deadline) {
                            snmpd.stop();
                            throw new IOException("snmpd did not answer on udp:127.0.0.1:" + port + " (its log: "
                                    + dir.resolve("snmpd.log") + ")", e);
                        }
                        Thread.sleep(100);
                    }
                }
            }
        }

        private void stop() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }

        /** Stops snmpd and removes its temporary directory (configuration, state, log). */
        @Override
        public void close() throws InterruptedException {
            stop();
            try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (IOException e) {
                // a temporary directory left behind
            }
        }
    }

    /** The row's section of the report, or nothing when the run did not measure it. */
    static String markdown(DevicesResult r) {
        if (!r.cells().contains(CELL)) {
            return "";
        }
        StringBuilder s = new StringBuilder("\n## SNMP: 100 OIDs of one device in one batch\n\n");
        s.append(String.format(Locale.ROOT, "Debian's snmpd on a loopback UDP port (v2c). The %d OIDs are the first"
                + " instances under mib-2 (system, sysORTable, interfaces), consecutive in snmpd's order. Through the"
                + " agent: protocol `snmp0`, a channel per OID, `max-oids-per-request` %d; one client sends the %d"
                + " reads of a poll together, the next poll when all are answered, back to back for %d ms; snmpd's"
                + " snmpInGetRequests counts the GETs the polls made. SNMP4J alone, on one session back to back for as"
                + " long: the GET of the same %d OIDs (what the driver sends for a batch of configured channels), and"
                + " one GETBULK of %d repetitions from mib-2 (the same values in one request). Target: the agent at"
                + " %.2f of SNMP4J's GET or more.%n%n", OIDS, OIDS, OIDS, r.config().pollDuration().toMillis(), OIDS,
                OIDS, DevicesReport.CEILING_TARGET));
        s.append("| through the agent (readings/s) | GETs per poll | errors | SNMP4J GET (readings/s) | agent / GET"
                + " | SNMP4J GETBULK (readings/s) | agent / GETBULK |\n|---:|---:|---:|---:|---:|---:|---:|\n");
        s.append("| ").append(DevicesReport.fmt(r.stat(CELL, "agent_readings_per_s"))).append(" | ")
                .append(DevicesReport.two(r.stat(CELL, "agent_gets_per_poll"))).append(" | ")
                .append(DevicesReport.fmt(r.stat(CELL, "agent_errors"))).append(" | ")
                .append(DevicesReport.fmt(r.stat(CELL, "snmp4j_get_readings_per_s"))).append(" | ")
                .append(DevicesReport.two(r.stat(CELL, "ratio_to_snmp4j_get"))).append(" | ")
                .append(DevicesReport.fmt(r.stat(CELL, "snmp4j_getbulk_readings_per_s"))).append(" | ")
                .append(DevicesReport.two(r.stat(CELL, "ratio_to_snmp4j_getbulk"))).append(" |\n");
        return s.toString();
    }
}
