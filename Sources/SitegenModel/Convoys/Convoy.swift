import Foundation
import SitegenCore

/// A convoy's id as it appears in its URL: a UUID (printed upper-case) or a short slug.
/// It becomes a path segment, so nothing else is accepted.
public struct ConvoyID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public static let maxLength = 64
    public let value: String

    public init?(_ text: String) {
        if let uuid = UUID(uuidString: text) {
            value = uuid.uuidString
            return
        }
        let isSlugCharacter: (UInt8) -> Bool = { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                return true
            default:
                return false
            }
        }
        guard (1...Self.maxLength).contains(text.utf8.count), text.utf8.allSatisfy(isSlugCharacter) else { return nil }
        value = text
    }

    public var description: String { value }
    public static func < (a: ConvoyID, b: ConvoyID) -> Bool { a.value < b.value }
}

public enum ConvoyStatus: String, Sendable, CaseIterable {
    case draft, ready, active, completed, cancelled

    public var label: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

/// Where an export value sits, for warnings raised after decoding: its file, line and
/// column, and its JSON path.
public struct ExportLocation: Sendable, Equatable {
    public let source: SourceRef
    public let path: String

    public init(source: SourceRef, path: String) {
        self.source = source
        self.path = path
    }
}

public struct ConvoyPlace: Sendable, Equatable {
    public var name: String
    public var address: String?
    public var latitude: Double?
    public var longitude: Double?

    package init(name: String, address: String?, latitude: Double?, longitude: Double?) {
        self.name = name
        self.address = address
        self.latitude = latitude
        self.longitude = longitude
    }
}

public struct ConvoyCheckpoint: Sendable, Equatable {
    public var place: ConvoyPlace
    public var order: Int
    public var notes: String?

    package init(place: ConvoyPlace, order: Int, notes: String?) {
        self.place = place
        self.order = order
        self.notes = notes
    }
}

public struct ConvoyRoute: Sendable, Equatable {
    public var distanceMeters: Double
    public var durationSeconds: Double

    package init(distanceMeters: Double, durationSeconds: Double) {
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
    }
}

/// A person in the convoy. Their id is private (docs/rules.md, "Privacy"), so it is not kept: vehicles
/// refer to participants by their position in `Convoy.participants` instead.
public struct ConvoyParticipant: Sendable, Equatable {
    public enum Role: String, Sendable, CaseIterable {
        case owner, driver, passenger, viewer
    }

    public enum Status: String, Sendable, CaseIterable {
        case invited, joined, declined

        public var label: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
    }

    public var displayName: String
    public var role: Role
    public var status: Status

    package init(displayName: String, role: Role, status: Status) {
        self.displayName = displayName
        self.role = role
        self.status = status
    }
}

/// Who sits in a seat: a participant, or an id that matches no participant (the field it
/// came from is kept for the warning; the id itself is not).
public enum SeatHolder: Sendable, Equatable {
    case participant(Int)
    case unknown(field: String)
}

public struct ConvoyVehicle: Sendable, Equatable {
    public var label: String
    /// nil when nobody drives yet.
    public var driver: SeatHolder?
    public var passengers: [SeatHolder]
    /// Seats including the driver's.
    public var capacity: Int
    public var notes: String?
    public var isLeader: Bool
    public var location: ExportLocation

    package init(label: String, driver: SeatHolder?, passengers: [SeatHolder], capacity: Int, notes: String?,
                 isLeader: Bool, location: ExportLocation) {
        self.label = label
        self.driver = driver
        self.passengers = passengers
        self.capacity = capacity
        self.notes = notes
        self.isLeader = isLeader
        self.location = location
    }
}

/// A group road trip in several cars (docs/exports.md, "Convoys"). Invitations are private and are not
/// even decoded.
public struct Convoy: Sendable, Equatable {
    public var id: ConvoyID
    public var title: String
    public var notes: String?
    public var status: ConvoyStatus
    public var origin: ConvoyPlace
    public var destination: ConvoyPlace?
    /// In `order`; checkpoints with the same order keep their order in the export.
    public var checkpoints: [ConvoyCheckpoint]
    /// nil when the route has not been computed.
    public var route: ConvoyRoute?
    public var vehicles: [ConvoyVehicle]
    public var participants: [ConvoyParticipant]
    public var createdAt: Date
    public var modifiedAt: Date
    public var source: SourceRef
    /// The record's JSON path: "" when the file holds one convoy, "[2]" in an array.
    public var recordPath: String
    /// Set when `leaderVehicleId` names no vehicle.
    public var unmatchedLeader: ExportLocation?

    package init(id: ConvoyID, title: String, notes: String?, status: ConvoyStatus, origin: ConvoyPlace,
                 destination: ConvoyPlace?, checkpoints: [ConvoyCheckpoint], route: ConvoyRoute?,
                 vehicles: [ConvoyVehicle], participants: [ConvoyParticipant], createdAt: Date,
                 modifiedAt: Date, source: SourceRef, recordPath: String, unmatchedLeader: ExportLocation?) {
        self.id = id
        self.title = title
        self.notes = notes
        self.status = status
        self.origin = origin
        self.destination = destination
        self.checkpoints = checkpoints
        self.route = route
        self.vehicles = vehicles
        self.participants = participants
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.source = source
        self.recordPath = recordPath
        self.unmatchedLeader = unmatchedLeader
    }
}
