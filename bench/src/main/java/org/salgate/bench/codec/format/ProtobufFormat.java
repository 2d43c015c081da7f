package org.salgate.bench.codec.format;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.salgate.bench.codec.study.Address;
import org.salgate.bench.codec.study.Person;
import org.salgate.bench.codec.study.Poi;
import org.salgate.bench.codec.study.Pois;
import org.salgate.bench.codec.study.Sex;

/** The {@code protobuf} format: the study records mapped to and from the messages of {@code bench.proto}. */
public final class ProtobufFormat implements PayloadFormat {

    /** The format name. */
    public static final String NAME = "protobuf";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public byte[] encode(Object value) throws IOException {
        if (value instanceof Pois pois) {
            return toProto(pois).toByteArray();
        }
        if (value instanceof Person person) {
            return toProto(person).toByteArray();
        }
        throw new IOException("the protobuf format writes Pois and Person, not " + describe(value));
    }

    @Override
    public <T> T decode(byte[] bytes, Class<T> type) throws IOException {
        try {
            if (type == Pois.class) {
                return type.cast(fromProto(org.salgate.bench.codec.proto.Pois.parseFrom(bytes)));
            }
            if (type == Person.class) {
                return type.cast(fromProto(org.salgate.bench.codec.proto.Person.parseFrom(bytes)));
            }
        } catch (InvalidProtocolBufferException e) {
            throw new IOException("not a valid protobuf " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
        throw new IOException("the protobuf format reads Pois and Person, not " + type.getName());
    }

    static org.salgate.bench.codec.proto.Pois toProto(Pois pois) {
        org.salgate.bench.codec.proto.Pois.Builder b = org.salgate.bench.codec.proto.Pois.newBuilder();
        for (Poi p : pois.items()) {
            b.addItems(org.salgate.bench.codec.proto.Poi.newBuilder()
                    .setId(p.id()).setName(p.name()).setCategory(p.category()).setDescription(p.description())
                    .setStreet(p.street()).setCity(p.city()).setPostalCode(p.postalCode()).setCountry(p.country())
                    .setLatitude(p.latitude()).setLongitude(p.longitude()).setPhone(p.phone())
                    .setWebsite(p.website()).setOpeningHours(p.openingHours()));
        }
        return b.build();
    }

    static Pois fromProto(org.salgate.bench.codec.proto.Pois pois) {
        List<Poi> items = new ArrayList<>(pois.getItemsCount());
        for (org.salgate.bench.codec.proto.Poi p : pois.getItemsList()) {
            items.add(new Poi(p.getId(), p.getName(), p.getCategory(), p.getDescription(), p.getStreet(),
                    p.getCity(), p.getPostalCode(), p.getCountry(), p.getLatitude(), p.getLongitude(), p.getPhone(),
                    p.getWebsite(), p.getOpeningHours()));
        }
        return new Pois(items);
    }

    static org.salgate.bench.codec.proto.Person toProto(Person p) {
        Address a = p.address();
        org.salgate.bench.codec.proto.Person.Builder b = org.salgate.bench.codec.proto.Person.newBuilder()
                .setId(p.id()).setName(p.name()).setAge(p.age())
                .setSex(p.sex() == Sex.FEMALE ? org.salgate.bench.codec.proto.Sex.FEMALE
                        : org.salgate.bench.codec.proto.Sex.MALE)
                .setAddress(org.salgate.bench.codec.proto.Address.newBuilder().setStreet(a.street())
                        .setCity(a.city()).setZip(a.zip()).setCountry(a.country()));
        for (Person c : p.children()) {
            b.addChildren(toProto(c));
        }
        for (Map.Entry<String, Person> f : p.friends().entrySet()) {
            b.putFriends(f.getKey(), toProto(f.getValue()));
        }
        return b.build();
    }

    static Person fromProto(org.salgate.bench.codec.proto.Person p) throws InvalidProtocolBufferException {
        if (!p.hasAddress()) {
            throw new InvalidProtocolBufferException("person '" + p.getId() + "' has no address");
        }
        Sex sex = switch (p.getSex()) {
            case FEMALE -> Sex.FEMALE;
            case MALE -> Sex.MALE;
            default -> throw new InvalidProtocolBufferException("person '" + p.getId() + "' has no valid sex");
        };
        org.salgate.bench.codec.proto.Address a = p.getAddress();
        List<Person> children = new ArrayList<>(p.getChildrenCount());
        for (org.salgate.bench.codec.proto.Person c : p.getChildrenList()) {
            children.add(fromProto(c));
        }
        Map<String, Person> friends = new TreeMap<>();
        for (Map.Entry<String, org.salgate.bench.codec.proto.Person> f : p.getFriendsMap().entrySet()) {
            friends.put(f.getKey(), fromProto(f.getValue()));
        }
        return new Person(p.getId(), p.getName(), p.getAge(), sex,
                new Address(a.getStreet(), a.getCity(), a.getZip(), a.getCountry()), children, friends);
    }

    static String describe(Object value) {
        return value == null ? "null" : value.getClass().getName();
    }

    @Override
    public String toString() {
        return NAME;
    }
}
