package org.salgate.bench.codec.study;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The recursive domain object of the serialization study that echoed 1000 of them over socket,
 * HTTP and RMI: a person with an address, an enum, children and friends who are persons too.
 *
 * <p>Every generated graph is a tree (no person appears twice), so that formats that write
 * references (Java serialization) and formats that do not (JSON, XML, protobuf) carry the same
 * data. Friends are kept in key order, so equal graphs encode to equal bytes.
 */
public record Person(String id, String name, int age, Sex sex, Address address, List<Person> children,
        Map<String, Person> friends) implements Serializable {

    public Person {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(sex, "sex");
        Objects.requireNonNull(address, "address");
        children = List.copyOf(children);
        friends = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(friends));
    }

    /** This person and everyone reachable through children and friends. */
    public int size() {
        int n = 1;
        for (Person c : children) {
            n += c.size();
        }
        for (Person f : friends.values()) {
            n += f.size();
        }
        return n;
    }
}
