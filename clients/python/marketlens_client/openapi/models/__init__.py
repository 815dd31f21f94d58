""" Contains all the data models used in inputs/outputs """

from .account_status import AccountStatus
from .account_view import AccountView
from .add_credits import AddCredits
from .admin_account import AdminAccount
from .admin_credits import AdminCredits
from .admin_key import AdminKey
from .candle_view import CandleView
from .category import Category
from .check_liveness_response_200 import CheckLivenessResponse200
from .check_readiness_response_200 import CheckReadinessResponse200
from .create_account import CreateAccount
from .created_account import CreatedAccount
from .credits_view import CreditsView
from .cursor_pagination import CursorPagination
from .data_envelope_account_view import DataEnvelopeAccountView
from .data_envelope_admin_account import DataEnvelopeAdminAccount
from .data_envelope_admin_key import DataEnvelopeAdminKey
from .data_envelope_created_account import DataEnvelopeCreatedAccount
from .data_envelope_event_detail import DataEnvelopeEventDetail
from .data_envelope_market_detail import DataEnvelopeMarketDetail
from .data_envelope_new_key import DataEnvelopeNewKey
from .data_envelope_order_book_view import DataEnvelopeOrderBookView
from .data_envelope_vec_admin_account import DataEnvelopeVecAdminAccount
from .data_envelope_vec_admin_key import DataEnvelopeVecAdminKey
from .depth_source import DepthSource
from .detail_outcome import DetailOutcome
from .error_body import ErrorBody
from .error_code import ErrorCode
from .error_object import ErrorObject
from .error_object_details_type_0 import ErrorObjectDetailsType0
from .event_detail import EventDetail
from .event_list_item import EventListItem
from .event_market_view import EventMarketView
from .exchange import Exchange
from .explain_data import ExplainData
from .explain_envelope import ExplainEnvelope
from .explain_market import ExplainMarket
from .explain_meta import ExplainMeta
from .explain_outcome import ExplainOutcome
from .explain_request import ExplainRequest
from .explain_source_type_0 import ExplainSourceType0
from .explain_source_type_0_type import ExplainSourceType0Type
from .explain_source_type_1 import ExplainSourceType1
from .explain_source_type_1_type import ExplainSourceType1Type
from .explain_status import ExplainStatus
from .get_market_history_interval import GetMarketHistoryInterval
from .get_open_api_document_response_200 import GetOpenApiDocumentResponse200
from .history_envelope import HistoryEnvelope
from .ledger_kind import LedgerKind
from .ledger_line import LedgerLine
from .ledger_page import LedgerPage
from .list_envelope_event_list_item import ListEnvelopeEventListItem
from .list_envelope_market_list_item import ListEnvelopeMarketListItem
from .list_envelope_spread_item import ListEnvelopeSpreadItem
from .list_markets_include import ListMarketsInclude
from .list_markets_sort_by import ListMarketsSortBy
from .list_markets_sort_order import ListMarketsSortOrder
from .list_outcome import ListOutcome
from .list_spreads_sort_by import ListSpreadsSortBy
from .market_detail import MarketDetail
from .market_history import MarketHistory
from .market_list_item import MarketListItem
from .market_resolution import MarketResolution
from .market_rules import MarketRules
from .market_status import MarketStatus
from .market_trades import MarketTrades
from .matched_market_view import MatchedMarketView
from .new_key import NewKey
from .order_book_view import OrderBookView
from .order_books_envelope import OrderBooksEnvelope
from .outcome_book_view import OutcomeBookView
from .outcome_history import OutcomeHistory
from .pagination import Pagination
from .platform import Platform
from .price_level import PriceLevel
from .rate_limit_view import RateLimitView
from .spread_item import SpreadItem
from .spread_side import SpreadSide
from .stream_client_message_type_0 import StreamClientMessageType0
from .stream_client_message_type_0_type import StreamClientMessageType0Type
from .stream_client_message_type_1 import StreamClientMessageType1
from .stream_client_message_type_1_type import StreamClientMessageType1Type
from .stream_client_message_type_2 import StreamClientMessageType2
from .stream_client_message_type_2_type import StreamClientMessageType2Type
from .stream_control_message_type_0 import StreamControlMessageType0
from .stream_control_message_type_0_type import StreamControlMessageType0Type
from .stream_control_message_type_1 import StreamControlMessageType1
from .stream_control_message_type_1_type import StreamControlMessageType1Type
from .stream_control_message_type_2 import StreamControlMessageType2
from .stream_control_message_type_2_type import StreamControlMessageType2Type
from .stream_control_message_type_3 import StreamControlMessageType3
from .stream_control_message_type_3_type import StreamControlMessageType3Type
from .stream_level import StreamLevel
from .stream_market_message_type_0 import StreamMarketMessageType0
from .stream_market_message_type_0_type import StreamMarketMessageType0Type
from .stream_market_message_type_1 import StreamMarketMessageType1
from .stream_market_message_type_1_type import StreamMarketMessageType1Type
from .stream_market_message_type_2 import StreamMarketMessageType2
from .stream_market_message_type_2_type import StreamMarketMessageType2Type
from .stream_market_message_type_3 import StreamMarketMessageType3
from .stream_market_message_type_3_type import StreamMarketMessageType3Type
from .stream_market_message_type_4 import StreamMarketMessageType4
from .stream_market_message_type_4_type import StreamMarketMessageType4Type
from .taker_side import TakerSide
from .trade_view import TradeView
from .trades_envelope import TradesEnvelope
from .update_account import UpdateAccount
from .user_view import UserView

__all__ = (
    "AccountStatus",
    "AccountView",
    "AddCredits",
    "AdminAccount",
    "AdminCredits",
    "AdminKey",
    "CandleView",
    "Category",
    "CheckLivenessResponse200",
    "CheckReadinessResponse200",
    "CreateAccount",
    "CreatedAccount",
    "CreditsView",
    "CursorPagination",
    "DataEnvelopeAccountView",
    "DataEnvelopeAdminAccount",
    "DataEnvelopeAdminKey",
    "DataEnvelopeCreatedAccount",
    "DataEnvelopeEventDetail",
    "DataEnvelopeMarketDetail",
    "DataEnvelopeNewKey",
    "DataEnvelopeOrderBookView",
    "DataEnvelopeVecAdminAccount",
    "DataEnvelopeVecAdminKey",
    "DepthSource",
    "DetailOutcome",
    "ErrorBody",
    "ErrorCode",
    "ErrorObject",
    "ErrorObjectDetailsType0",
    "EventDetail",
    "EventListItem",
    "EventMarketView",
    "Exchange",
    "ExplainData",
    "ExplainEnvelope",
    "ExplainMarket",
    "ExplainMeta",
    "ExplainOutcome",
    "ExplainRequest",
    "ExplainSourceType0",
    "ExplainSourceType0Type",
    "ExplainSourceType1",
    "ExplainSourceType1Type",
    "ExplainStatus",
    "GetMarketHistoryInterval",
    "GetOpenApiDocumentResponse200",
    "HistoryEnvelope",
    "LedgerKind",
    "LedgerLine",
    "LedgerPage",
    "ListEnvelopeEventListItem",
    "ListEnvelopeMarketListItem",
    "ListEnvelopeSpreadItem",
    "ListMarketsInclude",
    "ListMarketsSortBy",
    "ListMarketsSortOrder",
    "ListOutcome",
    "ListSpreadsSortBy",
    "MarketDetail",
    "MarketHistory",
    "MarketListItem",
    "MarketResolution",
    "MarketRules",
    "MarketStatus",
    "MarketTrades",
    "MatchedMarketView",
    "NewKey",
    "OrderBooksEnvelope",
    "OrderBookView",
    "OutcomeBookView",
    "OutcomeHistory",
    "Pagination",
    "Platform",
    "PriceLevel",
    "RateLimitView",
    "SpreadItem",
    "SpreadSide",
    "StreamClientMessageType0",
    "StreamClientMessageType0Type",
    "StreamClientMessageType1",
    "StreamClientMessageType1Type",
    "StreamClientMessageType2",
    "StreamClientMessageType2Type",
    "StreamControlMessageType0",
    "StreamControlMessageType0Type",
    "StreamControlMessageType1",
    "StreamControlMessageType1Type",
    "StreamControlMessageType2",
    "StreamControlMessageType2Type",
    "StreamControlMessageType3",
    "StreamControlMessageType3Type",
    "StreamLevel",
    "StreamMarketMessageType0",
    "StreamMarketMessageType0Type",
    "StreamMarketMessageType1",
    "StreamMarketMessageType1Type",
    "StreamMarketMessageType2",
    "StreamMarketMessageType2Type",
    "StreamMarketMessageType3",
    "StreamMarketMessageType3Type",
    "StreamMarketMessageType4",
    "StreamMarketMessageType4Type",
    "TakerSide",
    "TradesEnvelope",
    "TradeView",
    "UpdateAccount",
    "UserView",
)
