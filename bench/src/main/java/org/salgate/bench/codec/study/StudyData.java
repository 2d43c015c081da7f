package org.salgate.bench.codec.study;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Builds the studies' workloads from a seed, so that every run and every format sees the same data.
 */
public final class StudyData {

    /** The POI set sizes of the mobile study's four tests. */
    public static final List<Integer> POI_SET_SIZES = List.of(1, 250, 461, 1884);

    private static final String[] WORDS = {"old", "town", "river", "museum", "gallery", "tower", "garden",
        "harbour", "bridge", "market", "church", "castle", "square", "park", "view", "north", "south", "hill",
        "station", "library", "theatre", "fountain", "palace", "street", "avenue", "quarter", "historic",
        "modern", "local", "famous", "quiet", "open", "daily", "guided", "tours", "collection", "art"};
    private static final String[] CATEGORIES = {"museum", "monument", "park", "restaurant", "church", "viewpoint",
        "theatre", "market"};
    private static final String[] CITIES = {"Porto", "Lisboa", "Braga", "Coimbra", "Aveiro", "Faro", "Evora"};
    private static final String[] FIRST = {"Ana", "Bruno", "Carla", "David", "Eva", "Filipe", "Gloria", "Hugo",
        "Ines", "Joao", "Katia", "Luis", "Marta", "Nuno", "Olga", "Pedro"};
    private static final String[] LAST = {"Silva", "Santos", "Ferreira", "Pereira", "Oliveira", "Costa",
        "Rodrigues", "Martins", "Sousa", "Fernandes"};

    private StudyData() {}

    /** {@code count} points of interest of about 600 bytes each. */
    public static Pois pois(int count, long seed) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0");
        }
        SplittableRandom r = new SplittableRandom(seed);
        List<Poi> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String city = pick(r, CITIES);
            items.add(new Poi("poi-" + i, words(r, 3), pick(r, CATEGORIES), sentenceOf(r, 426),
                    (1 + r.nextInt(300)) + " Rua " + words(r, 2), city,
                    String.format("%04d-%03d", 1000 + r.nextInt(8999), r.nextInt(999)), "Portugal",
                    String.format("%.6f", 37 + r.nextDouble() * 5), String.format("%.6f", -9 + r.nextDouble() * 3),
                    String.format("+351 2%02d %03d %03d", r.nextInt(100), r.nextInt(1000), r.nextInt(1000)),
                    "https://www.example.org/" + city.toLowerCase(java.util.Locale.ROOT) + "/poi-" + i,
                    "Mon-Fri " + (8 + r.nextInt(3)) + ":00-" + (17 + r.nextInt(5)) + ":00; Sat "
                            + (9 + r.nextInt(2)) + ":00-13:00"));
        }
        return new Pois(items);
    }

    /**
     * One person graph: up to three children and up to three friends, each of whom may have up to
     * two children and two friends of their own, who have none.
     */
    public static Person person(long seed) {
        return person(new SplittableRandom(seed), "p", 2);
    }

    /** {@code count} person graphs, the echo workload. */
    public static List<Person> persons(int count, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Person> people = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            people.add(person(r, "p" + i, 2));
        }
        return people;
    }

    private static Person person(SplittableRandom r, String id, int depth) {
        List<Person> children = new ArrayList<>();
        Map<String, Person> friends = new TreeMap<>();
        if (depth > 0) {
            int max = depth == 2 ? 3 : 2;
            int nc = r.nextInt(max + 1);
            for (int i = 0; i < nc; i++) {
                children.add(person(r, id + "c" + i, depth - 1));
            }
            int nf = r.nextInt(max + 1);
            for (int i = 0; i < nf; i++) {
                String fid = id + "f" + i;
                friends.put(fid, person(r, fid, depth - 1));
            }
        }
        Address address = new Address((1 + r.nextInt(500)) + " " + pick(r, WORDS) + " street", pick(r, CITIES),
                String.format("%04d-%03d", 1000 + r.nextInt(8999), r.nextInt(999)), "Portugal");
        return new Person(id, pick(r, FIRST) + " " + pick(r, LAST), r.nextInt(90), r.nextBoolean() ? Sex.FEMALE
                : Sex.MALE, address, children, friends);
    }

    private static String pick(SplittableRandom r, String[] from) {
        return from[r.nextInt(from.length)];
    }

    private static String words(SplittableRandom r, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                b.append(' ');
            }
            b.append(pick(r, WORDS));
        }
        return b.toString();
    }

    private static String sentenceOf(SplittableRandom r, int chars) {
        StringBuilder b = new StringBuilder(chars + 16);
        while (b.length() < chars) {
            if (b.length() > 0) {
                b.append(' ');
            }
            b.append(pick(r, WORDS));
        }
        b.setLength(chars);
        return b.append('.').toString();
    }
}
