package org.salgate.agent.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.salgate.agent.Agent;
import org.salgate.agent.core.CallException;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.ProtocolConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Reads the agent's configuration again while it runs (on SIGHUP) and applies what can change
 * safely: the platform's protocols (removed, added, or removed and added again when changed,
 * through the agent's own add and remove machinery, so clients get the same events as for an
 * admin's request) and the log levels. Every other option needs a restart: a change of one is
 * logged as a warning naming it. A configuration with a problem changes nothing.
 *
 * <p>Protocols an admin added while the agent ran, not named by the file, are left alone.
 */
final class Reload {

    private static final Logger LOG = LoggerFactory.getLogger(Reload.class);

    private final Agent agent;
    private final AgentMain running;
    private final Supplier<Settings> sources;
    private final Map<String, String> environment;
    /** The platform the configuration gave at start or at the last reload. */
    private PlatformConfig platform;

    Reload(Agent agent, AgentMain running, PlatformConfig platform, Supplier<Settings> sources,
           Map<String, String> environment) {
        this.agent = agent;
        this.running = running;
        this.platform = platform;
        this.sources = sources;
        this.environment = environment;
    }

    /**
     * Runs a reload on SIGHUP, one at a time on a thread of its own. Uses sun.misc.Signal (module
     * jdk.unsupported, present in every JDK and jlink image that adds it): the JDK has no public
     * API for signals, and without it SIGHUP would stop the JVM as SIGTERM does.
     *
     * @return false when this platform has no SIGHUP, or when this process was started with SIGHUP
     *         ignored (under {@code nohup}): the JVM then keeps it ignored, and the agent runs without reload
     */
    boolean onHangUp() {
        ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sal-reload");
            t.setDaemon(true);
            return t;
        });
        try {
            sun.misc.Signal hangUp = new sun.misc.Signal("HUP");
            if (sun.misc.Signal.handle(hangUp, signal -> worker.execute(this::run)) == sun.misc.SignalHandler.SIG_IGN) {
                LOG.warn("SIGHUP is ignored by this process (started under nohup?): the agent cannot reload on it;"
                        + " restart it to apply a new configuration");
                worker.shutdown();
                return false;
            }
            return true;
        } catch (IllegalArgumentException e) {
            worker.shutdown();
            return false;
        }
    }

    /** Reads every source again and applies what a reload applies. */
    synchronized void run() {
        LOG.info("reload: reading the configuration again");
        Settings settings = sources.get();
        if (!settings.problems().isEmpty()) {
            settings.problems().forEach(p -> LOG.error("reload refused, nothing changed: {}", p));
            return;
        }
        settings.warnings().forEach(LOG::warn);
        AgentMain next = new AgentMain(environment);
        try {
            new CommandLine(next).parseArgs(settings.arguments().toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            LOG.error("reload refused, nothing changed: {}", e.getMessage());
            return;
        }
        List<String> problems = Logging.problems(next.logLevel, next.logLevels, next.logFormat);
        PlatformConfig nextPlatform = null;
        try {
            nextPlatform = next.platform();
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        if (!problems.isEmpty()) {
            problems.forEach(p -> LOG.error("reload refused, nothing changed: {}", settings.locate(p)));
            return;
        }
        warnOfRestartOptions(running, next);
        Logging.setLevels(next.logLevel, next.logLevels);
        apply(nextPlatform);
    }

    /** Warns of each option that changed and needs a restart to take effect. */
    private static void warnOfRestartOptions(AgentMain before, AgentMain after) {
        Map<String, OptionSpec> was = Settings.configurable(new CommandLine(before).getCommandSpec());
        Map<String, OptionSpec> is = Settings.configurable(new CommandLine(after).getCommandSpec());
        for (Map.Entry<String, OptionSpec> e : was.entrySet()) {
            String key = e.getKey();
            Object old = e.getValue().getValue();
            Object now = is.get(key).getValue();
            if (!ConfigTemplate.RELOADABLE.contains(key) && !Objects.equals(old, now)) {
                LOG.warn("reload: {} changed from {} to {}; it takes effect when the agent is restarted", key,
                        shown(key, old), shown(key, now));
            }
        }
    }

    private static String shown(String key, Object value) {
        String text = String.valueOf(value);
        return EffectiveConfig.MASKED_URLS.contains(key) ? Settings.maskPassword(text) : text;
    }

    /** Removes the protocols gone or changed, then adds the new and changed ones. */
    void apply(PlatformConfig next) {
        Map<String, ProtocolConfig> before = byName(platform);
        Map<String, ProtocolConfig> after = byName(next);
        List<String> removed = new ArrayList<>();
        List<ProtocolConfig> added = new ArrayList<>();
        int changed = 0;
        for (ProtocolConfig p : before.values()) {
            ProtocolConfig now = after.get(p.name());
            if (now == null || !now.equals(p)) {
                removed.add(p.name());
            }
        }
        for (ProtocolConfig p : after.values()) {
            ProtocolConfig was = before.get(p.name());
            if (was == null || !was.equals(p)) {
                added.add(p);
                changed += was == null ? 0 : 1;
            }
        }
        Map<String, ProtocolConfig> applied = new LinkedHashMap<>(before);
        for (String name : removed) {
            try {
                agent.removeProtocol(name);
            } catch (CallException e) {
                LOG.warn("reload: protocol {} was not running ({})", name, e.getMessage());
            }
            applied.remove(name);
        }
        if (!added.isEmpty()) {
            try {
                agent.addProtocols(new PlatformConfig(added));
                added.forEach(p -> applied.put(p.name(), p));
            } catch (CallException e) {
                LOG.error("reload: cannot add {}: {}; they are not running, a later reload tries again",
                        added.stream().map(ProtocolConfig::name).toList(), e.getMessage());
                added.clear();
                changed = 0;
            }
        }
        platform = new PlatformConfig(new ArrayList<>(applied.values()));
        LOG.info("reload: done; protocols: {} removed, {} added, {} changed, {} unchanged",
                removed.size() - changed, added.size() - changed, changed, before.size() - removed.size());
    }

    private static Map<String, ProtocolConfig> byName(PlatformConfig platform) {
        Map<String, ProtocolConfig> byName = new LinkedHashMap<>();
        platform.protocols().forEach(p -> byName.put(p.name(), p));
        return byName;
    }
}
