package org.salgate.agent.plugin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.salgate.model.ErrorCode;

/**
 * The directories its operator lets the agent load plugins from at run time ({@code --plugin-dir});
 * none by default, and then no protocol may name a plugin jar. A path a protocol names is resolved
 * (symbolic links and {@code ..} included) and must end up inside one of them; a relative path is
 * taken inside them. Every other path gets the same refusal, whether or not it exists, so the
 * refusal tells nothing about the agent's disk. Immutable.
 */
public final class PluginDirectories {

    private static final PluginDirectories NONE = new PluginDirectories(List.of());

    private final List<Path> directories;

    private PluginDirectories(List<Path> directories) {
        this.directories = List.copyOf(directories);
    }

    /** No directory: plugins load only from the agent's class path. */
    public static PluginDirectories none() {
        return NONE;
    }

    /**
     * The given directories, resolved to their real paths.
     *
     * @throws IllegalArgumentException naming the first one that is not an existing directory
     */
    public static PluginDirectories of(List<Path> directories) {
        List<Path> real = new ArrayList<>();
        for (Path d : directories) {
            try {
                Path r = d.toRealPath();
                if (!Files.isDirectory(r)) {
                    throw new IOException("not a directory");
                }
                real.add(r);
            } catch (IOException e) {
                throw new IllegalArgumentException("plugin directory " + d + " is not an existing directory ("
                        + e.getMessage() + ")");
            }
        }
        return new PluginDirectories(real);
    }

    /** The directories, as real paths. */
    public List<Path> directories() {
        return directories;
    }

    /**
     * The real path of the plugin jar or class directory {@code named}, inside one of the directories.
     *
     * @throws PluginLoadException PERMISSION_DENIED when there are no directories, or (one message
     *                             for all) when the path is not inside one of them or does not exist
     */
    public Path resolve(String named) throws PluginLoadException {
        if (directories.isEmpty()) {
            throw new PluginLoadException(ErrorCode.PERMISSION_DENIED, "this agent loads no plugins at run time; "
                    + "its operator may allow a directory with --plugin-dir, or put the plugin on its class path");
        }
        for (Path dir : directories) {
            try {
                Path real = dir.resolve(named.strip()).toRealPath();
                if (real.startsWith(dir) && !real.equals(dir)) {
                    return real;
                }
            } catch (IOException | InvalidPathException e) {
                // the same refusal as for a path outside
            }
        }
        throw new PluginLoadException(ErrorCode.PERMISSION_DENIED, "plugin path '" + named.strip()
                + "' is not a plugin in this agent's plugin directories (--plugin-dir); put the plugin jar there "
                + "and name it by its file name");
    }

    @Override
    public String toString() {
        return "PluginDirectories" + directories;
    }
}
