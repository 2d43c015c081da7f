package org.salgate.agent.testing;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.sensorml.SensorDescription;
import org.salgate.model.Value;

/**
 * Compiles a small plugin of a given type into a class directory (and optionally a jar) that is
 * not on the test class path, as a plugin added to a running agent would be.
 */
public final class PluginBuilder {

    private PluginBuilder() {}

    /** A class directory holding plugin {@code type} with one sensor {@code <TYPE>_0} reading 7.0. */
    public static Path classDirectory(Path root, String type) throws IOException {
        String pkg = "org.salgate.testext." + type;
        Path src = root.resolve("src");
        Path classes = root.resolve("classes");
        Files.createDirectories(src);
        Files.createDirectories(classes);
        String sensor = type.toUpperCase(java.util.Locale.ROOT) + "_0";
        String code = """
                package %s;
                import java.util.*;
                import org.salgate.plugin.spi.*;
                import org.salgate.sensorml.*;
                import org.salgate.model.Value;
                public final class ExtPlugin implements SensorPlugin {
                    public String type() { return "%s"; }
                    public SensorProtocol open(ProtocolConfig config, PluginContext context) {
                        return new SensorProtocol() {
                            public List<SensorDescription> sensors() {
                                return List.of(new SensorDescription("%s", "loaded at run time", config.name(), "",
                                        List.of(Output.quantity("value", "http://example.org/v", "1")),
                                        SamplingBounds.ANY));
                            }
                            public List<CommandDescription> commands(String id) {
                                return List.of(CommandDescription.builder("read").streaming(SamplingBounds.ANY).build());
                            }
                            public Value execute(String id, String command, Map<String, String> args) {
                                return Value.of(7.0);
                            }
                            public void close() { }
                        };
                    }
                }
                """.formatted(pkg, type, sensor);
        Path file = src.resolve("ExtPlugin.java");
        Files.writeString(file, code);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        String classPath = String.join(File.pathSeparator, location(SensorPlugin.class),
                location(SensorDescription.class), location(Value.class));
        int rc = javac.run(null, null, null, "-d", classes.toString(), "-classpath", classPath, "--release", "17",
                file.toString());
        if (rc != 0) {
            throw new IllegalStateException("could not compile the test plugin");
        }
        Path services = classes.resolve("META-INF/services/" + SensorPlugin.class.getName());
        Files.createDirectories(services.getParent());
        Files.writeString(services, pkg + ".ExtPlugin\n");
        return classes;
    }

    /** The class directory packed into a jar. */
    public static Path jar(Path classes, Path jarFile) throws IOException {
        try (OutputStream out = Files.newOutputStream(jarFile); JarOutputStream jar = new JarOutputStream(out);
             Stream<Path> files = Files.walk(classes)) {
            for (Path p : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                jar.putNextEntry(new JarEntry(classes.relativize(p).toString().replace(File.separatorChar, '/')));
                jar.write(Files.readAllBytes(p));
                jar.closeEntry();
            }
        }
        return jarFile;
    }

    private static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

}
