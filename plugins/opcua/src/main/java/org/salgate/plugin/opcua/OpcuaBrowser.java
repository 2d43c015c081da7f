package org.salgate.plugin.opcua;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.core.AccessLevel;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.OpcUaDataType;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UByte;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseDirection;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseResultMask;
import org.eclipse.milo.opcua.stack.core.types.enumerated.NodeClass;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseResult;
import org.eclipse.milo.opcua.stack.core.types.structured.EUInformation;
import org.eclipse.milo.opcua.stack.core.types.structured.Range;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReferenceDescription;
import org.salgate.plugin.spi.PluginException;
import org.salgate.sensorml.ChannelConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the variables of a server's subtree with the Browse and Read services: the node the
 * protocol's {@code browse} parameter names is browsed along its hierarchical references (forward,
 * with their subtypes: Organizes, HasComponent...), level by level down to {@code browse-depth}
 * levels, looking at {@code browse-limit} nodes at most; every Variable found (not a property) is a
 * channel. Its name is made from its browse path below the root, its unit from its
 * {@code EngineeringUnits} property ({@link OpcuaUnits}), its description from its Description
 * attribute with its data type and its {@code EURange} property, its access from its AccessLevel.
 */
final class OpcuaBrowser {

    private static final Logger log = LoggerFactory.getLogger(OpcuaBrowser.class);

    /** Browse descriptions and read value ids sent in one service call. */
    private static final int PER_CALL = 200;
    private static final Pattern WORD = Pattern.compile("[A-Za-z0-9_]+");
    private static final int NAME_MAX = 64;

    private final OpcUaClient client;
    private final String where;

    /** A node found, with the browse names of its path below the root and its properties' node ids. */
    private record Node(NodeId id, List<String> path, boolean variable, Map<String, NodeId> properties) {
        Node(NodeId id, List<String> path, boolean variable) {
            this(id, path, variable, new HashMap<>());
        }
    }

    /** What the server says of a variable: its properties' and attributes' values. */
    record Facts(String unit, Range range, NodeId dataType, String description, UByte accessLevel) {
    }

    /** @param where how log lines name the protocol */
    OpcuaBrowser(OpcUaClient client, String where) {
        this.client = client;
        this.where = where;
    }

    /**
     * The variables below {@code root}, as channels carrying their node id in attribute {@code node}.
     *
     * @throws UaException when a service call failed as a whole
     * @throws PluginException when the server cannot browse {@code root} (no such node), naming why
     */
    List<ChannelConfig> variables(NodeId root, int depth, int limit) throws UaException, PluginException {
        List<Node> variables = new ArrayList<>();
        Set<NodeId> seen = new HashSet<>();
        seen.add(root);
        List<Node> level = List.of(new Node(root, List.of(), false));
        int looked = 0;
        boolean cut = false;
        for (int d = 0; !level.isEmpty(); d++) {
            // the last level is browsed only for its variables' properties
            boolean last = d >= depth || cut;
            List<BrowseResult> results = browse(level, NodeIds.HierarchicalReferences);
            StatusCode status = results.get(0).getStatusCode();
            if (d == 0 && status != null && status.isBad()) {
                throw new PluginException("the server cannot browse node " + root.toParseableString()
                        + " (parameter browse): " + OpcuaProtocol.statusName(status));
            }
            List<Node> next = new ArrayList<>();
            for (int i = 0; i < level.size(); i++) {
                Node parent = level.get(i);
                for (ReferenceDescription r : references(results.get(i))) {
                    NodeId id = r.getNodeId().toNodeId(client.getNamespaceTable()).orElse(null);
                    if (id == null || r.getBrowseName() == null || r.getBrowseName().name() == null) {
                        continue;
                    }
                    if (NodeIds.HasProperty.equals(r.getReferenceTypeId())) {
                        parent.properties().put(r.getBrowseName().name(), id);
                        continue;
                    }
                    boolean variable = r.getNodeClass() == NodeClass.Variable;
                    if (last || !(variable || r.getNodeClass() == NodeClass.Object) || !seen.add(id)) {
                        continue;
                    }
                    if (looked >= limit) {
                        cut = true;
                        continue;
                    }
                    looked++;
                    List<String> path = new ArrayList<>(parent.path());
                    path.add(r.getBrowseName().name());
                    Node child = new Node(id, List.copyOf(path), variable);
                    next.add(child);
                    if (variable) {
                        variables.add(child);
                    }
                }
            }
            if (last) {
                break;
            }
            level = d == depth - 1 || cut ? next.stream().filter(Node::variable).toList() : next;
        }
        if (cut) {
            log.warn("{}: browsing {} stopped at browse-limit {} nodes; the variables found so far are served"
                    + " (raise browse-limit or browse a smaller subtree)", where, root.toParseableString(), limit);
        }
        Map<NodeId, Facts> facts = facts(variables);
        Set<String> names = new HashSet<>();
        List<ChannelConfig> channels = new ArrayList<>();
        for (Node v : variables) {
            Facts f = facts.get(v.id());
            ChannelConfig.Access access = access(f.accessLevel());
            if (access == null) {
                continue;
            }
            String name = name(v.path(), v.id());
            if (!names.add(name)) {
                log.warn("{}: variable {} at {} is left out: its name {} is taken by another", where,
                        v.id().toParseableString(), String.join("/", v.path()), name);
                continue;
            }
            channels.add(new ChannelConfig(name, description(f, String.join("/", v.path())), f.unit(), 1, 0,
                    access, null, null, Map.of("node", v.id().toParseableString())));
        }
        return channels;
    }

    /**
     * The unit each node's {@code EngineeringUnits} property gives, for the nodes that have one.
     *
     * @throws UaException when a service call failed as a whole
     */
    Map<NodeId, String> units(List<NodeId> nodes) throws UaException {
        List<Node> level = nodes.stream().map(n -> new Node(n, List.of(), true)).toList();
        List<BrowseResult> results = browse(level, NodeIds.HasProperty);
        List<ReadValueId> ids = new ArrayList<>();
        for (int i = 0; i < level.size(); i++) {
            for (ReferenceDescription r : references(results.get(i))) {
                if (r.getBrowseName() != null && r.getBrowseName().name() != null) {
                    Node n = level.get(i);
                    r.getNodeId().toNodeId(client.getNamespaceTable())
                            .ifPresent(id -> n.properties().put(r.getBrowseName().name(), id));
                }
            }
            ids.add(property(level.get(i), "EngineeringUnits"));
        }
        List<DataValue> values = read(ids);
        Map<NodeId, String> units = new HashMap<>();
        for (int i = 0; i < level.size(); i++) {
            if (struct(values.get(i)) instanceof EUInformation eu && !OpcuaUnits.of(eu).isEmpty()) {
                units.put(level.get(i).id(), OpcuaUnits.of(eu));
            }
        }
        return units;
    }

    private static ReferenceDescription[] references(BrowseResult r) {
        return r == null || r.getReferences() == null ? new ReferenceDescription[0] : r.getReferences();
    }

    /** The forward references of type {@code type} (and its subtypes) of each node, in order, whole. */
    private List<BrowseResult> browse(List<Node> nodes, NodeId type) throws UaException {
        List<BrowseResult> all = new ArrayList<>(nodes.size());
        for (int from = 0; from < nodes.size(); from += PER_CALL) {
            List<BrowseDescription> batch = new ArrayList<>();
            for (Node n : nodes.subList(from, Math.min(nodes.size(), from + PER_CALL))) {
                batch.add(new BrowseDescription(n.id(), BrowseDirection.Forward, type, true,
                        uint(NodeClass.Object.getValue() | NodeClass.Variable.getValue()),
                        uint(BrowseResultMask.All.getValue())));
            }
            for (BrowseResult r : client.browse(batch)) {
                all.add(whole(r));
            }
        }
        return all;
    }

    /** {@code r} with the references behind its continuation points. */
    private BrowseResult whole(BrowseResult r) throws UaException {
        if (r.getStatusCode() != null && r.getStatusCode().isBad()) {
            return r;
        }
        ByteString next = r.getContinuationPoint();
        if (next == null || next.isNull()) {
            return r;
        }
        List<ReferenceDescription> refs = new ArrayList<>(List.of(references(r)));
        while (next != null && !next.isNull()) {
            BrowseResult more = client.browseNext(false, List.of(next)).getResults()[0];
            refs.addAll(List.of(references(more)));
            next = more.getContinuationPoint();
        }
        return new BrowseResult(r.getStatusCode(), null, refs.toArray(ReferenceDescription[]::new));
    }

    /** Each variable's unit, range, data type, description and access level, in Read service calls. */
    private Map<NodeId, Facts> facts(List<Node> variables) throws UaException {
        List<ReadValueId> ids = new ArrayList<>();
        for (Node v : variables) {
            ids.add(new ReadValueId(v.id(), AttributeId.DataType.uid(), null, null));
            ids.add(new ReadValueId(v.id(), AttributeId.Description.uid(), null, null));
            ids.add(new ReadValueId(v.id(), AttributeId.AccessLevel.uid(), null, null));
            ids.add(property(v, "EngineeringUnits"));
            ids.add(property(v, "EURange"));
        }
        List<DataValue> values = read(ids);
        Map<NodeId, Facts> facts = new LinkedHashMap<>();
        for (int i = 0; i < variables.size(); i++) {
            int at = i * 5;
            Object type = values.get(at).getValue().getValue();
            Object text = values.get(at + 1).getValue().getValue();
            Object level = values.get(at + 2).getValue().getValue();
            Object eu = struct(values.get(at + 3));
            Object range = struct(values.get(at + 4));
            facts.put(variables.get(i).id(), new Facts(
                    eu instanceof EUInformation u ? OpcuaUnits.of(u) : "",
                    range instanceof Range r ? r : null,
                    type instanceof NodeId n ? n : null,
                    text instanceof LocalizedText t && t.text() != null ? t.text().strip() : "",
                    level instanceof UByte b ? b : null));
        }
        return facts;
    }

    /** The Value of {@code v}'s property {@code name}; a null node id (read as Bad) when it has none. */
    private static ReadValueId property(Node v, String name) {
        NodeId p = v.properties().get(name);
        return new ReadValueId(p == null ? NodeId.NULL_VALUE : p, AttributeId.Value.uid(), null, null);
    }

    private List<DataValue> read(List<ReadValueId> ids) throws UaException {
        List<DataValue> all = new ArrayList<>(ids.size());
        for (int from = 0; from < ids.size(); from += PER_CALL) {
            DataValue[] got = client.read(0.0, TimestampsToReturn.Neither,
                    ids.subList(from, Math.min(ids.size(), from + PER_CALL))).getResults();
            all.addAll(List.of(got));
        }
        return all;
    }

    /** A structure value decoded, or null. */
    private Object struct(DataValue value) {
        if (value.getStatusCode() != null && value.getStatusCode().isBad()) {
            return null;
        }
        Object v = value.getValue().getValue();
        if (v instanceof ExtensionObject x) {
            try {
                return x.decode(client.getStaticEncodingContext());
            } catch (RuntimeException e) {
                log.debug("{}: a property did not decode: {}", where, e.toString());
                return null;
            }
        }
        return v;
    }

    /** READ, WRITE or READ_WRITE from the AccessLevel bits; null when neither (not served). */
    private static ChannelConfig.Access access(UByte level) {
        if (level == null) {
            return ChannelConfig.Access.READ;
        }
        Set<AccessLevel> bits = AccessLevel.fromValue(level);
        boolean read = bits.contains(AccessLevel.CurrentRead);
        boolean write = bits.contains(AccessLevel.CurrentWrite);
        return read && write ? ChannelConfig.Access.READ_WRITE : read ? ChannelConfig.Access.READ
                : write ? ChannelConfig.Access.WRITE : null;
    }

    /** The Description, else the path; with the data type and the EURange. */
    private static String description(Facts f, String path) {
        StringBuilder b = new StringBuilder(f.description().isEmpty() ? path : f.description());
        List<String> more = new ArrayList<>();
        if (f.dataType() != null) {
            OpcUaDataType builtin = OpcUaDataType.fromNodeId(f.dataType());
            more.add(builtin != null ? builtin.name() : "data type " + f.dataType().toParseableString());
        }
        if (f.range() != null && f.range().getLow() != null && f.range().getHigh() != null) {
            more.add("range " + number(f.range().getLow()) + " to " + number(f.range().getHigh()));
        }
        if (!more.isEmpty()) {
            b.append(" (").append(String.join(", ", more)).append(')');
        }
        return b.toString();
    }

    private static String number(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

    /**
     * A channel name for the variable at {@code path}: its browse names joined by {@code -}
     * ({@code Boiler-Temperature}) when they are letters, digits and {@code _} only and the whole
     * fits 64 characters; else the same with every other character made {@code _}, cut to fit,
     * and {@code -} and 8 hex digits of the node id's CRC-32, so that the name stays unique and is
     * the same at every discovery.
     */
    static String name(List<String> path, NodeId id) {
        boolean plain = !path.isEmpty();
        List<String> words = new ArrayList<>(path.size());
        for (String segment : path) {
            if (WORD.matcher(segment).matches()) {
                words.add(segment);
            } else {
                plain = false;
                words.add(segment.replaceAll("[^A-Za-z0-9_]", "_"));
            }
        }
        String joined = String.join("-", words);
        if (plain && joined.length() <= NAME_MAX && Character.isLetterOrDigit(joined.charAt(0))) {
            return joined;
        }
        CRC32 crc = new CRC32();
        crc.update(id.toParseableString().getBytes(StandardCharsets.UTF_8));
        String tag = String.format("%08x", crc.getValue());
        String stem = joined.replaceAll("^[^A-Za-z0-9]+", "");
        stem = stem.length() > NAME_MAX - 9 ? stem.substring(0, NAME_MAX - 9) : stem;
        return stem.isEmpty() ? "n" + tag : stem + "-" + tag;
    }
}
