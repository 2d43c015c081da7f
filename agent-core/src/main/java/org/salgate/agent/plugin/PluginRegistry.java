package org.salgate.agent.plugin;

import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.salgate.agent.endpoint.Endpoints;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.model.ErrorCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugins this agent knows, by type: those found with {@link ServiceLoader} on the agent's
 * plugin class loader at start, and those loaded later from a jar or class directory, each with
 * its own {@link URLClassLoader} (parented to the plugin class loader, so that the SPI classes are
 * shared). A plugin that fails to load is logged and skipped; a second plugin with a type already
 * known is refused. The endpoint types a plugin brings ({@link SensorPlugin#endpointTypes()}) are
 * added to the agent's {@link Endpoints} when it is registered; a plugin whose types clash with
 * known ones is refused. Loaded jars stay loaded until {@link #close()}. Thread-safe.
 */
public final class PluginRegistry implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PluginRegistry.class);
    private static final String SERVICES = "META-INF/services/" + SensorPlugin.class.getName();

    private record Registered(SensorPlugin plugin, String source) {}

    private final ClassLoader baseLoader;
    private final Endpoints endpoints;
    private final Map<String, Registered> byType = new TreeMap<>();
    private final Map<Path, URLClassLoader> loadedPaths = new LinkedHashMap<>();

    private PluginRegistry(ClassLoader baseLoader, Endpoints endpoints) {
        this.baseLoader = baseLoader;
        this.endpoints = endpoints;
    }

    /**
     * The plugins registered for {@link ServiceLoader} on {@code loader}, whose endpoint types go
     * to {@code endpoints}, as will those of the plugins loaded later.
     */
    public static PluginRegistry load(ClassLoader loader, Endpoints endpoints) {
        PluginRegistry registry = new PluginRegistry(loader, endpoints);
        synchronized (registry) {
            for (SensorPlugin p : discover(loader)) {
                registry.register(p, "class path");
            }
        }
        return registry;
    }

    /** The plugin of this type, if one is known. */
    public synchronized Optional<SensorPlugin> find(String type) {
        Registered r = byType.get(type);
        return r == null ? Optional.empty() : Optional.of(r.plugin());
    }

    /** The known plugin types, sorted, each with where it came from. */
    public synchronized Map<String, String> types() {
        Map<String, String> out = new TreeMap<>();
        byType.forEach((type, r) -> out.put(type, r.source()));
        return out;
    }

    /**
     * The plugin of {@code type} from a jar or class directory, loading it the first time.
     *
     * @throws PluginLoadException INVALID_ARGUMENT when the path does not exist or holds no such plugin,
     *                       CONFLICT when the type is known already from elsewhere
     */
    public synchronized SensorPlugin loadFrom(Path path, String type) throws PluginLoadException {
        Path where = path.toAbsolutePath().normalize();
        String source = where.toString();
        Registered known = byType.get(type);
        if (known != null && !known.source().equals(source)) {
            throw new PluginLoadException(ErrorCode.CONFLICT, "plugin type '" + type + "' is loaded already from "
                    + known.source() + "; drop the plugin path to use it, or give the new plugin another type");
        }
        if (known != null) {
            return known.plugin();
        }
        if (loadedPaths.containsKey(where)) {
            throw noSuchType(type, where);
        }
        if (!Files.exists(where)) {
            throw new PluginLoadException(ErrorCode.INVALID_ARGUMENT, "plugin path " + where
                    + " does not exist on the agent's machine; give the path of a plugin jar or class directory");
        }
        URLClassLoader loader;
        try {
            URL url = where.toUri().toURL();
            loader = new URLClassLoader("salgate-plugin:" + where.getFileName(), new URL[] {url}, baseLoader);
        } catch (MalformedURLException e) {
            throw new PluginLoadException(ErrorCode.INVALID_ARGUMENT, "plugin path " + where + " is not usable: "
                    + e.getMessage());
        }
        List<SensorPlugin> found = discoverOwn(loader);
        if (found.isEmpty()) {
            closeQuietly(loader);
            throw new PluginLoadException(ErrorCode.INVALID_ARGUMENT, "no sensor plugin in " + where
                    + "; a plugin jar names its class in META-INF/services/" + SensorPlugin.class.getName());
        }
        loadedPaths.put(where, loader);
        String refusal = null;
        for (SensorPlugin p : found) {
            String why = register(p, source);
            if (why != null && type.equals(typeOf(p))) {
                refusal = why;
            }
        }
        Registered now = byType.get(type);
        if (now == null && refusal != null) {
            throw new PluginLoadException(ErrorCode.CONFLICT, "plugin type '" + type + "' from " + where
                    + " is refused: " + refusal);
        }
        if (now == null || !now.source().equals(source)) {
            throw noSuchType(type, where);
        }
        return now.plugin();
    }

    private PluginLoadException noSuchType(String type, Path where) {
        List<String> there = new ArrayList<>();
        byType.forEach((t, r) -> {
            if (r.source().equals(where.toString())) {
                there.add(t);
            }
        });
        return new PluginLoadException(ErrorCode.UNKNOWN_PROTOCOL, "the plugins in " + where + " are of type "
                + (there.isEmpty() ? "(none usable)" : String.join(", ", there)) + ", not '" + type + "'");
    }

    /** Registers a plugin, with its endpoint types; returns why it was refused, or null. */
    private String register(SensorPlugin plugin, String source) {
        String type = typeOf(plugin);
        if (type == null) {
            LOG.error("plugin {} from {} has no type or failed to say it, and is skipped", plugin.getClass().getName(),
                    source);
            return "it has no type";
        }
        Registered previous = byType.get(type);
        if (previous != null) {
            LOG.error("two plugins have type '{}': keeping {} from {}, refusing {} from {}", type,
                    previous.plugin().getClass().getName(), previous.source(), plugin.getClass().getName(), source);
            return "type '" + type + "' is known already from " + previous.source();
        }
        try {
            endpoints.registerTypes(plugin.endpointTypes());
        } catch (RuntimeException | LinkageError e) {
            LOG.error("plugin {} ({}) from {} is refused: its endpoint types cannot be added: {}", type,
                    plugin.getClass().getName(), source, e.getMessage());
            return "its endpoint types cannot be added: " + e.getMessage();
        }
        byType.put(type, new Registered(plugin, source));
        LOG.debug("plugin type {} ({}) from {}", type, plugin.getClass().getName(), source);
        return null;
    }

    /** A plugin's type, or null when it has none or fails to say it. */
    private static String typeOf(SensorPlugin plugin) {
        try {
            String type = plugin.type();
            return type == null || type.isBlank() ? null : type;
        } catch (RuntimeException | LinkageError e) {
            LOG.debug("plugin {} failed to say its type", plugin.getClass().getName(), e);
            return null;
        }
    }

    /**
     * The plugins named in the services files of {@code loader}'s own path only, so that the
     * plugins of its parent are neither instantiated again nor logged again when they fail.
     */
    private static List<SensorPlugin> discoverOwn(URLClassLoader loader) {
        List<SensorPlugin> found = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        try {
            Enumeration<URL> files = loader.findResources(SERVICES);
            while (files.hasMoreElements()) {
                URL file = files.nextElement();
                try (InputStream in = file.openStream()) {
                    for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\\R")) {
                        String name = line.replaceFirst("#.*", "").trim();
                        if (!name.isEmpty()) {
                            names.add(name);
                        }
                    }
                }
            }
        } catch (IOException e) {
            LOG.error("cannot read the plugin list of {}: {}", loader.getName(), e.getMessage());
        }
        for (String name : names) {
            try {
                Class<?> c = Class.forName(name, false, loader);
                if (c.getClassLoader() != loader || !SensorPlugin.class.isAssignableFrom(c)) {
                    LOG.error("{} in {} is not a sensor plugin of its own and is skipped", name, loader.getName());
                    continue;
                }
                found.add((SensorPlugin) c.getConstructor().newInstance());
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                Throwable cause = e instanceof java.lang.reflect.InvocationTargetException ite ? ite.getCause() : e;
                LOG.error("sensor plugin {} from {} could not be loaded and is skipped: {}", name, loader.getName(),
                        cause.toString());
                LOG.debug("plugin loading failure", cause);
            }
        }
        return found;
    }

    /** The plugins visible to {@code loader}. */
    private static List<SensorPlugin> discover(ClassLoader loader) {
        List<SensorPlugin> found = new ArrayList<>();
        var iterator = ServiceLoader.load(SensorPlugin.class, loader).iterator();
        while (true) {
            try {
                if (!iterator.hasNext()) {
                    break;
                }
                found.add(iterator.next());
            } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
                LOG.error("a sensor plugin could not be loaded and is skipped: {}{}", e.getMessage(),
                        e.getCause() == null ? "" : " (" + e.getCause() + ")");
                LOG.debug("plugin loading failure", e);
            }
        }
        return found;
    }

    /** Closes the class loaders of plugins loaded from paths. */
    @Override
    public synchronized void close() {
        loadedPaths.values().forEach(PluginRegistry::closeQuietly);
        loadedPaths.clear();
    }

    private static void closeQuietly(URLClassLoader loader) {
        try {
            loader.close();
        } catch (IOException e) {
            LOG.debug("closing plugin class loader {}", loader.getName(), e);
        }
    }
}
